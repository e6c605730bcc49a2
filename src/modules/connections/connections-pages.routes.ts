import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { HostedPurpose } from '../../db/schema.js';
import { BoundedString } from '../../http/schemas.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import { renderConnectPage } from '../../pages/connect-pages.js';
import { MAX_SECRET_TEXT, parseCredentialsForm } from '../accounts/contract.js';
import type { ConnectionsService } from './contract.js';
import { formOf, sendPage } from '../../http/pages.js';
import { hostedOf, type requireHostedSession } from '../hosted-sessions/contract.js';

const HostedParams = Type.Object({ connection_id: BoundedString(64) });

/** The hosted connect page (purpose `connect`): credentials in, then the connection's progress. */
export function connectPageRoutes(deps: {
  hostedPage: (purposes: HostedPurpose[]) => ReturnType<typeof requireHostedSession>;
  connections: ConnectionsService;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const guard = deps.hostedPage(['connect']);
    const pathOf = (id: string) => `/hosted/connections/${encodeURIComponent(id)}`;

    /** The connection of this page, if the browser session was issued for it. */
    async function load(request: FastifyRequest, reply: FastifyReply, id: string) {
      const hosted = hostedOf(request);
      const data = hosted.session.scope.connection_id === id ? await deps.connections.pageData(hosted.scope.legalEntityId, id) : null;
      if (!data) {
        await sendPage(
          reply,
          renderMessagePage({
            title: 'Connection not found',
            body: 'This connection is not part of this page.',
            platformName: hosted.platformName,
            brand: hosted.brand,
          }),
          { status: 404 },
        );
        return null;
      }
      return { hosted, data };
    }

    function render(
      page: NonNullable<Awaited<ReturnType<typeof load>>>,
      extra: { errors?: Record<string, string>; username?: string } = {},
    ) {
      const { hosted, data } = page;
      return renderConnectPage({
        platformName: hosted.platformName,
        brand: hosted.brand,
        businessName: hosted.businessName,
        agencyName: data.agencyName,
        regionName: data.regionName,
        accountName: data.account.name,
        status: data.connection.status,
        statusReason: data.connection.status_reason,
        idNumber: data.connection.status === 'connected' ? (data.account.details?.id_number ?? null) : null,
        csrf: hosted.csrf,
        action: pathOf(data.connection.id),
        ...(extra.errors && { errors: extra.errors }),
        values: { username: extra.username ?? '' },
      });
    }

    r.get(
      '/hosted/connections/:connection_id',
      { preHandler: guard, schema: { hide: true, params: HostedParams } },
      async (request, reply) => {
        const page = await load(request, reply, request.params.connection_id);
        if (!page) return reply;
        return sendPage(reply, render(page));
      },
    );

    r.post(
      '/hosted/connections/:connection_id',
      { preHandler: guard, schema: { hide: true, params: HostedParams } },
      async (request, reply) => {
        const page = await load(request, reply, request.params.connection_id);
        if (!page) return reply;
        const accepting = page.data.connection.status === 'pending' || page.data.connection.status === 'disconnected';
        if (accepting) {
          const form = formOf(request);
          const parsed = parseCredentialsForm(form);
          if (!parsed.ok)
            return sendPage(reply, render(page, { errors: parsed.errors, username: (form.username ?? '').slice(0, MAX_SECRET_TEXT) }), {
              status: 422,
            });
          await deps.connections.submitCredentials(page.hosted.scope.legalEntityId, page.data.connection.id, parsed.secrets);
        }
        // Post/redirect/get: the page shows whatever state the connection is in now (progress, or why not).
        return reply.redirect(pathOf(page.data.connection.id), 303);
      },
    );
  };
}
