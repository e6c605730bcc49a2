// Minimal typings for the parts of autocannon 9 the benchmark uses (the package ships none).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
      headers?: Record<string, string>;
      body?: string | Buffer;
      connections?: number;
      duration?: number;
      pipelining?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      /** Each response body must equal this string, or it counts as a mismatch. */
      expectBody?: string;
      /**
       * Each response body must satisfy this, or it counts as a mismatch (takes precedence over expectBody).
       * The body is the response's chunks decoded as UTF-8 one by one and joined, so binary bodies do not survive it.
       */
      verifyBody?: (body: string) => boolean;
      title?: string;
      /** Called with each connection's client before its first request. */
      setupClient?: (client: Client) => void;
    }

    interface Request {
      method?: Options['method'];
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }

    interface Client {
      /** The requests this connection sends, in turn (in place of the url's one). */
      setRequests(requests: Request[]): void;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      [percentile: string]: number;
    }

    interface Result {
      title?: string;
      url: string;
      connections: number;
      duration: number;
      samples: number;
      start: Date;
      finish: Date;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram & { totalCount: number };
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }

    interface Instance extends EventEmitter {
      stop(): void;
      on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
      on(event: 'reqError', listener: (error: Error) => void): this;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the catch-all overload, as EventEmitter declares it
      on(event: string, listener: (...args: any[]) => void): this;
    }
  }

  function autocannon(options: autocannon.Options, callback: (error: Error | null, result: autocannon.Result) => void): autocannon.Instance;

  export default autocannon;
}
