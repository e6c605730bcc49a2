import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../../db/database.js';
import { renderLinkExpiredPage, renderSignupConfirmPage, renderSignupDonePage } from '../../pages/signup-pages.js';
import type { SignupService } from '../legal-entities/signup.service.js';
import { HOSTED_SESSION_PATH, type HostedSessionsService } from './hosted-sessions.service.js';

const STYLESHEET = readFileSync(new URL('../../../public/statehouse.css', import.meta.url), 'utf8');

const TokenParams = Type.Object({ token: Type.String({ maxLength: 128 }) });

/** No third-party requests, no inline script or style, no framing, no referrer (the URL holds a secret). */
function pageHeaders(reply: FastifyReply, formTarget?: string | null) {
  const formAction = ["'self'", formTarget ? new URL(formTarget).origin : null].filter(Boolean).join(' ');
  return reply
    .header('content-security-policy', `default-src 'none'; style-src 'self'; img-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`)
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8');
}

/** The callback gets the entity id (and a status) appended to whatever query it already has. */
export function callbackTarget(callbackUrl: string, legalEntityId: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set('legal_entity_id', legalEntityId);
  url.searchParams.set('status', 'complete');
  return url.toString();
}

export function hostedRoutes(deps: { db: Db; sessions: HostedSessionsService; signup: SignupService }) {
  const platformName = async (legalEntityId: string) =>
    (await deps.db.selectFrom('legal_entities').innerJoin('platforms', 'platforms.id', 'legal_entities.platform_id')
      .select('platforms.name').where('legal_entities.id', '=', legalEntityId).executeTakeFirstOrThrow()).name;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const hide = { hide: true } as const;

    r.get('/hosted/assets/statehouse.css', { schema: hide }, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(STYLESHEET));

    r.get(`${HOSTED_SESSION_PATH}:token`, { schema: { ...hide, params: TokenParams } }, async (request, reply) => {
      const found = await deps.sessions.lookup(request.params.token);
      if (found.state !== 'valid') return pageHeaders(reply).code(found.state === 'unknown' ? 404 : 410).send(renderLinkExpiredPage());
      const entity = await deps.db.selectFrom('legal_entities').selectAll().where('id', '=', found.session.legal_entity_id).executeTakeFirstOrThrow();
      const html = renderSignupConfirmPage({ entity, platformName: await platformName(entity.id), action: request.url.split('?')[0]! });
      return pageHeaders(reply, found.session.callback_url).send(html);
    });

    r.post(`${HOSTED_SESSION_PATH}:token`, { schema: { ...hide, params: TokenParams } }, async (request, reply) => {
      const done = await deps.signup.completeSignup(request.params.token);
      if (!done) return pageHeaders(reply).code(410).send(renderLinkExpiredPage());
      if (done.callbackUrl) return reply.header('referrer-policy', 'no-referrer').redirect(callbackTarget(done.callbackUrl, done.entity.id), 303);
      return pageHeaders(reply).send(renderSignupDonePage({ entity: done.entity, platformName: await platformName(done.entity.id) }));
    });
  };
}
