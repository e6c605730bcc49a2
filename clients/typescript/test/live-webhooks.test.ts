// The SDK's webhook verification on a real delivery: an endpoint made with the SDK, an event from a signup, the
// delivery the service POSTed to a local receiver verified with verifyWebhook; a changed body or another
// secret refused. An outside component (a listening server): the embedded-PostgreSQL lane only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outsideComponentsLane } from '../../../test/helpers/lanes.js';
import { waitUntil } from '../../../test/helpers/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';
import { createApiKeyClient, verifyWebhook, WebhookSignatureError } from '../src/index.js';
import { SIGNUP, startLiveServer, type LiveServer } from './live-server.js';

describe.skipIf(!outsideComponentsLane)('the TypeScript SDK verifies a real webhook delivery', () => {
  let server: LiveServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    server = await startLiveServer();
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  it('verifies the delivery of task.created with the endpoint secret, and refuses a changed one', async () => {
    const platform = createApiKeyClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
    const { data: endpoint } = await platform.POST('/v2/webhook_endpoints', {
      body: { url: receiver.url, event_types: ['task.created'] },
    });
    const secret = endpoint!.secret;
    receiver.setSecret(secret);
    const { data: signup } = await platform.POST('/v2/signup', { body: SIGNUP });
    const delivery = await waitUntil(() => receiver.received[0], 'the delivery of task.created');

    const event = verifyWebhook(secret, delivery.body, delivery.headers);
    expect(event.type).toBe('task.created');
    expect(event.legal_entity_id).toBe(signup!.legal_entity_id);
    expect(event.id).toBe(delivery.headers['webhook-id']);
    // The same bytes as a Uint8Array and the headers as a fetch Headers verify too.
    const bytes = new TextEncoder().encode(delivery.body);
    expect(verifyWebhook(secret, bytes, new Headers(delivery.headers)).id).toBe(event.id);

    const changed = delivery.body.replace(signup!.legal_entity_id, 'le_someoneelse');
    expect(() => verifyWebhook(secret, changed, delivery.headers)).toThrow(WebhookSignatureError);
    const otherSecret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect(() => verifyWebhook(otherSecret, delivery.body, delivery.headers)).toThrow(WebhookSignatureError);
    const { 'webhook-signature': _, ...unsigned } = delivery.headers;
    expect(() => verifyWebhook(secret, delivery.body, unsigned)).toThrow(WebhookSignatureError);
  });
});
