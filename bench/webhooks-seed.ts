/**
 * The webhooks step's fixtures (bench/webhooks.ts), untimed and through the API like a platform would: a platform
 * of its own ("Bench Webhooks", created as the operator CLI does), one legal entity per load connection signed up
 * with `POST /v2/signup`, each with a token and California employees (`PUT /v2/regions/CA`), and later the
 * webhook endpoint (`POST /v2/webhook_endpoints`, subscribed to every event type).
 */
import type { Db } from '../src/db/database.js';
import { createPlatformsModule } from '../src/modules/platforms/index.js';
import { expectStatus, request } from './http-client.js';

export const WEBHOOKS_PLATFORM_NAME = 'Bench Webhooks';
/** The write of the step: the region every entity has, and the two employee counts each connection alternates between. */
export const WRITE_REGION = 'CA';
export const WRITE_COUNTS = [8, 9] as const;
export const writePath = (region = WRITE_REGION) => `/v2/regions/${region}`;
export const writeBody = (i: number) => JSON.stringify({ employee_count: WRITE_COUNTS[i % WRITE_COUNTS.length] });

export interface WriterEntity {
  legalEntityId: string;
  authorization: string;
}

const json = (body: Buffer) => JSON.parse(body.toString('utf8')) as Record<string, unknown>;

export async function seedWebhookEntities(
  db: Db,
  baseUrl: string,
  count: number,
): Promise<{ platformId: string; apiKey: string; entities: WriterEntity[] }> {
  const { platform, apiKey } = await createPlatformsModule({ db }).platforms.create(WEBHOOKS_PLATFORM_NAME);
  const headers = { authorization: apiKey.key, 'content-type': 'application/json' };
  const entities: WriterEntity[] = [];
  for (let i = 0; i < count; i++) {
    const signup = await request(`${baseUrl}/v2/signup`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        user_email: `owner${i + 1}@hooks.example`,
        business_name: `Bench Hooks ${i + 1} Inc`,
        entity_type: 'c_corp',
        tax_class: 'corp',
        incorporation_region: 'DE',
        incorporated_date: '2020-01-15',
      }),
    });
    expectStatus(signup, 200, `POST /v2/signup (webhooks entity ${i + 1})`);
    const legalEntityId = json(signup.body).legal_entity_id as string;
    const auth = await request(`${baseUrl}/accounts/auth`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ legal_entity_id: legalEntityId }),
    });
    expectStatus(auth, 200, `POST /accounts/auth (webhooks entity ${i + 1})`);
    const authorization = `Bearer ${json(auth.body).access_token as string}`;
    const located = await request(`${baseUrl}${writePath()}`, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'application/json' },
      body: writeBody(1),
    });
    expectStatus(located, 200, `PUT ${writePath()} (webhooks entity ${i + 1})`);
    entities.push({ legalEntityId, authorization });
  }
  return { platformId: platform.id, apiKey: apiKey.key, entities };
}

/** An enabled endpoint of the platform, subscribed to every event type (no `event_types`); returns its id and signing secret. */
export async function createEndpoint(baseUrl: string, apiKey: string, url: string): Promise<{ id: string; secret: string }> {
  const created = await request(`${baseUrl}/v2/webhook_endpoints`, {
    method: 'POST',
    headers: { authorization: apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ url, description: 'bench receiver' }),
  });
  expectStatus(created, 201, 'POST /v2/webhook_endpoints');
  const body = json(created.body);
  if (typeof body.id !== 'string' || typeof body.secret !== 'string')
    throw new Error(`POST /v2/webhook_endpoints: no id or secret in ${created.body.toString('utf8').slice(0, 300)}`);
  return { id: body.id, secret: body.secret };
}
