/** The tiny HTTP client of the bench's checks and seeding (not of the load: that is autocannon). */
import http from 'node:http';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`${options.method ?? 'GET'} ${url} timed out`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

export function expectStatus(reply: Reply, status: number, what: string): void {
  if (reply.status !== status)
    throw new Error(`${what} answered ${reply.status}, expected ${status}: ${reply.body.toString('utf8').slice(0, 500)}`);
}
