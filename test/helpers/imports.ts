// What the import tests share: a row of the file, posting a file, waiting for an import to finish.
import type { FastifyInstance } from 'fastify';
import { VALID_SIGNUP_V2, json } from './app.js';
import { waitUntil } from './wait.js';

/** A valid row of an import (a /v2/signup body with its external id), with `extra` fields. */
export const importBody = (externalId: string, extra: Record<string, unknown> = {}) => ({
  ...VALID_SIGNUP_V2,
  business_name: `Imported ${externalId}`,
  external_company_id: externalId,
  ...extra,
});

export const importFile = (app: FastifyInstance, apiKey: string, contentType: string, body: string) =>
  app.inject({
    method: 'POST',
    url: '/v2/legal_entities/imports',
    headers: { authorization: apiKey, 'content-type': contentType },
    payload: body,
  });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies loosely
export async function waitForImport(app: FastifyInstance, apiKey: string, id: string): Promise<any> {
  return waitUntil(async () => {
    const body = json(
      await app.inject({ method: 'GET', url: `/v2/legal_entities/imports/${id}?limit=1000`, headers: { authorization: apiKey } }),
    );
    return ['succeeded', 'completed_with_errors', 'failed'].includes(body.status) && body;
  }, `import ${id} to finish`);
}
