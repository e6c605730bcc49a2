import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** How the receiver answers one request. */
export type ReceiverBehaviour =
  | { kind: 'ok'; status?: number }
  | { kind: 'error'; status: number; body: string }
  | { kind: 'redirect'; location: string }
  /** Never answers (the attempt times out). */
  | { kind: 'hang' }
  /** Closes the connection without an answer. */
  | { kind: 'destroy' };

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** The payload as `Webhook.verify` returned it with the endpoint's secret, or the error it threw. */
  verified:
    | { ok: true; payload: { id: string; type: string; created_at: string; legal_entity_id: string | null; data: unknown } }
    | { ok: false; error: string };
  answeredWith: ReceiverBehaviour['kind'];
}

/**
 * A webhook receiver on 127.0.0.1 that verifies every request with `standardwebhooks` (the secret is set once the
 * endpoint exists) and answers as `behaviour` says for that request (ordinal from 0).
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  let secret: string | null = null;
  let behaviour: (request: { index: number; eventId: string; body: string }) => ReceiverBehaviour = () => ({ kind: 'ok' });
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      let verified: ReceivedWebhook['verified'];
      try {
        if (!secret) throw new Error('no secret set');
        verified = { ok: true, payload: new Webhook(secret).verify(body, headers) as never };
      } catch (error) {
        verified = { ok: false, error: (error as Error).message };
      }
      const answer = behaviour({ index: received.length, eventId: headers['webhook-id'] ?? '', body });
      received.push({ headers, body, verified, answeredWith: answer.kind });
      switch (answer.kind) {
        case 'ok':
          response.writeHead(answer.status ?? 204).end();
          break;
        case 'error':
          response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
          break;
        case 'redirect':
          response.writeHead(302, { location: answer.location }).end();
          break;
        case 'hang':
          hanging.add(response);
          break;
        case 'destroy':
          request.socket.destroy();
          break;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Requests whose signature verified, their payloads. */
    verified: () => received.flatMap((r) => (r.verified.ok ? [r.verified.payload] : [])),
    setSecret(value: string) {
      secret = value;
    },
    answer(fn: typeof behaviour) {
      behaviour = fn;
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
