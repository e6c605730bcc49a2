/**
 * The webhooks step's receiver (bench/webhooks.ts): a node:http server in the bench process that answers every
 * delivery 204 at once, then verifies it with `standardwebhooks` against the endpoint's secret and keeps, per
 * event id (`webhook-id`), the arrival time of its first verified delivery. Deliveries of an id already seen are
 * counted as duplicates (at-least-once allows them); a delivery that fails verification is counted as bad.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';

export interface WebhookReceiver {
  url: string;
  /** Verification starts once the endpoint exists and its secret is known; deliveries before that count as bad. */
  setSecret(secret: string): void;
  /** First verified arrival (performance.now()) per event id. */
  readonly arrivals: ReadonlyMap<string, number>;
  readonly counts: { requests: number; badSignatures: number; duplicates: number };
  /** The last verification error, for the report. */
  readonly lastError: string | null;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let verifier: Webhook | null = null;
  const arrivals = new Map<string, number>();
  const counts = { requests: 0, badSignatures: 0, duplicates: 0 };
  let lastError: string | null = null;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      res.writeHead(204).end();
      counts.requests += 1;
      const id = req.headers['webhook-id'];
      try {
        if (!verifier) throw new Error('delivery before the endpoint existed');
        verifier.verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>);
      } catch (error) {
        counts.badSignatures += 1;
        lastError = (error as Error).message;
        return;
      }
      if (typeof id !== 'string') return;
      if (arrivals.has(id)) counts.duplicates += 1;
      else arrivals.set(id, at);
    });
  });
  // Statehouse's delivery agent may keep connections alive; never let an idle one hold the close.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    setSecret: (secret) => {
      verifier = new Webhook(secret);
    },
    arrivals,
    counts,
    get lastError() {
      return lastError;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
