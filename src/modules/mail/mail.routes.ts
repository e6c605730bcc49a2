import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { HostedPurpose } from '../../db/schema.js';
import { scopeOf, type AuthHooks } from '../../http/auth.js';
import { errorResponses, SessionResultSchema } from '../../http/schemas.js';
import { NotFoundError } from '../../lib/errors.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import { renderDocumentList } from '../../pages/document-pages.js';
import { sendPage } from '../../http/pages.js';
import { hostedOf, type requireHostedSession, type HostedSessionsService } from '../hosted-sessions/contract.js';
import { V2ScopeQuerySchema } from '../../http/v2-scope.js';
import { assertV2Scope } from '../../http/v2-scope.js';
import { MAIL_FILE_PATH } from './file-links.js';
import {
  DocumentsSessionBodySchema,
  LocationParamsSchema,
  MailFileParamsSchema,
  MailFileQuerySchema,
  MailQuerySchema,
  MailSchema,
  MailV2QuerySchema,
  MailV2Schema,
} from './mail.schemas.js';
import type { MailItemView, MailService } from './contract.js';

export const toMail = (m: MailItemView) => ({
  id: m.id,
  location_id: m.region?.id ?? null,
  type: m.type,
  received: m.receivedOn,
  sender: m.sender,
  file_url: m.fileUrl,
});
export const toMailV2 = (m: MailItemView) => ({
  id: m.id,
  region: m.region?.code ?? null,
  type: m.type,
  received: m.receivedOn,
  sender: m.sender,
  file_url: m.fileUrl,
});

const TYPE_LABELS = { 'registered-agent': 'Registered agent mail', 'external-mail': 'Mail' } as const;

const LIST_DOC =
  'Newest received first. `start_date` and `end_date` are inclusive and compare with the day the mail was received; ' +
  'an `end_date` before `start_date` is a 422. Follow each `file_url` to download the PDF: it is a signed link that needs no ' +
  'Authorization header and expires after 15 minutes by default (list again for a fresh one).';

/**
 * GET /mail, GET /locations/{id}/mail, GET /v2/mail, the documents hosted page and the signed PDF download route.
 */
export function mailRoutes(deps: {
  mail: MailService;
  auth: AuthHooks;
  sessions: Pick<HostedSessionsService, 'issueForCallback'>;
  fileUrlTtlSeconds: number;
  hostedPage: (purposes: HostedPurpose[]) => ReturnType<typeof requireHostedSession>;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['Mail'];
    const security = [{ bearer: [] }];
    const common = { onRequest: deps.auth.bearer };

    r.get(
      '/mail',
      {
        ...common,
        config: { inputAt: 'query' },
        schema: {
          operationId: 'listMail',
          tags,
          security,
          summary: 'Mail received by the authenticated legal entity',
          description: LIST_DOC,
          querystring: MailQuerySchema,
          response: { 200: Type.Array(MailSchema), ...errorResponses(401, 422) },
        },
      },
      async (request) =>
        (await deps.mail.list(scopeOf(request), { startDate: request.query.start_date, endDate: request.query.end_date })).map(toMail),
    );

    r.get(
      '/locations/:region_platform_public_id/mail',
      {
        ...common,
        config: { inputAt: 'query' },
        schema: {
          operationId: 'listMailForLocation',
          tags,
          security,
          summary: 'Mail received by the authenticated legal entity for one location',
          description: `The location id or its two-letter code; an unknown location is a 404. ${LIST_DOC}`,
          params: LocationParamsSchema,
          querystring: MailQuerySchema,
          response: { 200: Type.Array(MailSchema), ...errorResponses(401, 404, 422) },
        },
      },
      async (request) =>
        (
          await deps.mail.listForLocation(scopeOf(request), request.params.region_platform_public_id, {
            startDate: request.query.start_date,
            endDate: request.query.end_date,
          })
        ).map(toMail),
    );

    r.get(
      '/v2/mail',
      {
        ...common,
        config: { inputAt: 'query' },
        schema: {
          operationId: 'listMailV2',
          tags,
          security,
          summary: 'Mail received by the authenticated legal entity, optionally of one region',
          description: LIST_DOC,
          querystring: MailV2QuerySchema,
          response: { 200: Type.Array(MailV2Schema), ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        const q = request.query;
        return (await deps.mail.list(scope, { startDate: q.start_date, endDate: q.end_date, regionCode: q.region })).map(toMailV2);
      },
    );

    // The link itself is the credential (see file-links.ts): no bearer, so a browser can follow it.
    r.get(
      `${MAIL_FILE_PATH}:mail_id`,
      {
        schema: {
          operationId: 'downloadMailFile',
          tags,
          security: [],
          summary: 'Download the PDF of a mail item (signed link)',
          description:
            'The `file_url` of a mail item. It needs no Authorization header: the `expires` (Unix seconds) and `signature` query parameters ' +
            'are the credential. A missing or altered signature, or one made for another item, is a 403; an expired link is a 410 ' +
            '(list the mail again for a fresh link); an unknown item is a 404. The PDF is sent inline, never cached.',
          params: MailFileParamsSchema,
          querystring: MailFileQuerySchema,
          response: {
            200: { description: 'The PDF.', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
            ...errorResponses(403, 404, 410),
          },
        },
      },
      async (request, reply) => {
        const file = await deps.mail.openSignedFile(request.params.mail_id, request.query.expires, request.query.signature);
        return (
          reply
            .header('content-type', 'application/pdf')
            .header('content-length', String(file.size))
            .header('content-disposition', `inline; filename="${file.fileName}"`)
            .header('x-content-type-options', 'nosniff')
            .header('cache-control', 'private, no-store')
            .header('referrer-policy', 'no-referrer')
            // A stream is sent as it is; the 200 schema above only documents it.
            .send(file.stream as never)
        );
      },
    );

    r.post(
      '/v2/documents/manage/session',
      {
        ...common,
        schema: {
          operationId: 'createDocumentsManagementSessionV2',
          tags,
          security,
          summary: 'A hosted page listing the entity’s mail with download links',
          description:
            'Returns a single-use link to a page where the user sees the documents received from state agencies and downloads them.',
          querystring: V2ScopeQuerySchema,
          body: DocumentsSessionBodySchema,
          response: { 200: SessionResultSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const scope = scopeOf(request);
        assertV2Scope(scope, request.query);
        return deps.sessions.issueForCallback({
          platformId: scope.platformId,
          legalEntityId: scope.legalEntityId,
          purpose: 'documents',
          callbackUrl: request.body.callback_url,
        });
      },
    );

    r.get(
      '/hosted/documents',
      {
        preHandler: deps.hostedPage(['documents']),
        schema: { hide: true },
      },
      async (request, reply) => {
        const hosted = hostedOf(request);
        const items = await deps.mail.list(hosted.scope);
        return sendPage(
          reply,
          renderDocumentList({
            platformName: hosted.platformName,
            brand: hosted.brand,
            businessName: hosted.businessName,
            callbackUrl: hosted.session.callback_url,
            items: items.map((m) => ({
              id: m.id,
              typeLabel: TYPE_LABELS[m.type],
              subject: m.subject,
              received: m.receivedOn,
              sender: m.sender,
              regionName: m.region?.name ?? null,
              isNew: m.openedAt === null,
              openUrl: `/hosted/documents/${encodeURIComponent(m.id)}/open`,
            })),
          }),
        );
      },
    );

    // Opening a document from the page records that the owner saw it (no longer "new"), then hands over a fresh signed link.
    // A GET (a link, no form): a scanner cannot follow it, since it needs the browser session of this page.
    r.get(
      '/hosted/documents/:mail_id/open',
      {
        preHandler: deps.hostedPage(['documents']),
        schema: { hide: true, params: MailFileParamsSchema },
      },
      async (request, reply) => {
        const hosted = hostedOf(request);
        try {
          return reply.redirect(await deps.mail.openForOwner(hosted.scope, request.params.mail_id), 303);
        } catch (error) {
          if (error instanceof NotFoundError) {
            return sendPage(
              reply,
              renderMessagePage({
                title: 'Document not found',
                body: 'This document is not part of this page.',
                platformName: hosted.platformName,
                brand: hosted.brand,
              }),
              { status: 404 },
            );
          }
          throw error;
        }
      },
    );
  };
}
