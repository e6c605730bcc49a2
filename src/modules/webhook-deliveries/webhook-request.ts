import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { DestinationGuard } from '../webhooks/contract.js';

/** Bytes of the receiver's answer kept with the attempt (enough to see an error page's message). */
export const EXCERPT_BYTES = 2048;
export const USER_AGENT = 'Statehouse-Webhooks/1';

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  /** Why the attempt failed (null when it succeeded). */
  error: string | null;
  latencyMs: number;
  excerpt: string | null;
}

/**
 * POSTs one signed message. 2xx is a success; anything else, including a redirect (never followed: the endpoint's
 * URL is the only destination the guard approved), is a failure with its reason. `timeoutMs` bounds the whole
 * attempt: resolving, connecting, sending and the answer's head and excerpt.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; guard: DestinationGuard },
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    const fail = (error: string, statusCode: number | null = null, excerpt: string | null = null) =>
      finish({ ok: false, statusCode, error, excerpt });
    let request: http.ClientRequest | undefined;
    const timer = setTimeout(() => {
      fail(`timed out after ${options.timeoutMs} ms`);
      request?.destroy();
    }, options.timeoutMs);

    // Sockets skip `lookup` for an address written in the URL: the guard checks those itself first.
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(host) !== 0 ? options.guard.check(url) : Promise.resolve();
    literal.then(
      () => {
        if (settled) return;
        const transport = target.protocol === 'https:' ? https : http;
        request = transport.request(
          target,
          {
            method: 'POST',
            headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
            lookup: options.guard.lookup as never,
            agent: false,
          },
          (response) => {
            const status = response.statusCode ?? 0;
            const chunks: Buffer[] = [];
            let kept = 0;
            const done = () => {
              const excerpt = chunks.length ? Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8') : null;
              if (status >= 200 && status < 300) finish({ ok: true, statusCode: status, error: null, excerpt });
              else if (status >= 300 && status < 400)
                fail(
                  `HTTP ${status}: redirects are not followed${response.headers.location ? ` (to ${response.headers.location.slice(0, 200)})` : ''}`,
                  status,
                  excerpt,
                );
              else fail(`HTTP ${status}`, status, excerpt);
              response.destroy();
            };
            response.on('data', (chunk: Buffer) => {
              chunks.push(chunk);
              kept += chunk.length;
              if (kept >= EXCERPT_BYTES) done();
            });
            response.on('end', done);
            response.on('error', (error) => fail(describe(error), status));
          },
        );
        request.on('error', (error) => fail(describe(error)));
        request.end(body);
      },
      (error: Error) => fail(error.message),
    );
  });
}

const describe = (error: NodeJS.ErrnoException) =>
  (error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message).slice(0, 500);
