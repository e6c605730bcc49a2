import type { FastifyInstance, FastifyRequest } from 'fastify';
import './auth.js';
import { API_VERSION_HEADER, CURRENT_API_VERSION, readApiVersionHeader } from './api-versions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The version the request's `Statehouse-Version` header asked for; null when it sent none. */
    requestedApiVersion: string | null;
  }
}

/**
 * The version a request is answered under: its header's, else the pin of the platform its credential belongs to
 * (an API key, or the key behind an access token), else the current one (no credential, a refused one, a page).
 */
export const apiVersionOf = (request: FastifyRequest): string =>
  request.requestedApiVersion ?? request.scope?.apiVersion ?? request.platform?.apiVersion ?? CURRENT_API_VERSION;

/**
 * `Statehouse-Version` (docs/versions.md): a malformed or unknown one is a 400 before anything else runs; every
 * answer, errors and 404/405 included, names the version it was given under.
 */
export function registerApiVersionHeader(app: FastifyInstance): void {
  app.decorateRequest('requestedApiVersion', null);
  app.addHook('onRequest', async (request, reply) => {
    const read = readApiVersionHeader(request.headers[API_VERSION_HEADER]);
    if ('refused' in read) return reply.code(400).send({ detail: read.refused });
    request.requestedApiVersion = read.version;
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header(API_VERSION_HEADER, apiVersionOf(request));
  });
}
