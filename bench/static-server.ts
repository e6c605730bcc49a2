/**
 * Benchmark child (a, f0): a bare node:http server answering every request with the same bytes
 * (Statehouse's own GET /legal_entity response, captured by the parent; for f0 one of the bench's
 * mail PDFs, kept in memory). The ceiling of HTTP transport on this machine, with no framework,
 * no database and no disk.
 *
 * Env: BENCH_BODY_B64 (the body, base64) or BENCH_BODY_FILE (a file holding it: for bodies too large
 * for an environment variable, as Linux limits one to 128 KiB), BENCH_CONTENT_TYPE.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { announceReady, log, onShutdown, requireEnv } from './child-lifecycle.js';

const NAME = 'bare-static';
const bodyFile = process.env.BENCH_BODY_FILE?.trim();
const body = bodyFile ? readFileSync(bodyFile) : Buffer.from(requireEnv('BENCH_BODY_B64'), 'base64');
const headers = {
  'content-type': process.env.BENCH_CONTENT_TYPE || 'application/json; charset=utf-8',
  'content-length': String(body.length),
};

const server = http.createServer((request, response) => {
  // Drain any request body, then answer.
  request.resume();
  response.writeHead(200, headers);
  response.end(body);
});

onShutdown(
  NAME,
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

server.on('error', (error) => {
  log(NAME, `server error: ${error.message}`);
  process.exit(1);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  announceReady({ url: `http://127.0.0.1:${port}` });
});
