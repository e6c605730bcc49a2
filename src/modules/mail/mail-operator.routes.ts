import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/schemas.js';
import { HttpError } from '../../lib/errors.js';
import { OPERATOR_SECURITY, OperatorEntityParamsSchema, operatorPrincipalOf, type OperatorHook } from '../operators/contract.js';
import type { AuditService } from '../audit/contract.js';
import { MailQuerySchema, OperatorMailSchema, UploadQuerySchema } from './mail.schemas.js';
import type { MailItemView, MailService } from './contract.js';

export const toOperatorMail = (m: MailItemView) => ({
  id: m.id,
  legal_entity_id: m.legalEntityId,
  region: m.region?.code ?? null,
  type: m.type,
  received: m.receivedOn,
  sender: m.sender,
  file_name: m.fileName,
  subject: m.subject,
  opened_at: m.openedAt?.toISOString() ?? null,
  file_sha256: m.fileSha256,
  file_size: m.fileSize,
  created_at: m.createdAt.toISOString(),
  file_url: m.fileUrl,
});

const PDF = 'application/pdf';

/**
 * Operator intake of mail: `POST /operator/v1/legal_entities/{id}/mail` with the PDF as the raw body.
 * Registered as its own plugin so the application/pdf parser and the larger body limit apply to this
 * route only; every other route keeps the 1 MiB JSON limit and its parsers.
 */
export function mailOperatorRoutes(deps: {
  mail: MailService;
  operatorAuth: OperatorHook;
  audit: Pick<AuditService, 'record'>;
  maxBytes: number;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['Operator'];

    app.addContentTypeParser(PDF, { parseAs: 'buffer', bodyLimit: deps.maxBytes }, (_request, body, done) => done(null, body));

    // Checked before the body is read: a wrong upload is refused without buffering megabytes.
    const requirePdf = async (request: FastifyRequest) => {
      const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      if (type !== PDF) {
        throw new HttpError(
          415,
          `Send the PDF itself as the request body with Content-Type: ${PDF} (got ${type ? `'${type}'` : 'no content type'})`,
        );
      }
    };

    // The app-wide handler words 413s with the app-wide limit; this route has its own.
    const uploadErrors = (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      if (error.statusCode === 413 && !(error instanceof HttpError)) {
        return reply
          .code(413)
          .type('application/json; charset=utf-8')
          .send(JSON.stringify({ detail: `The file is larger than the limit of ${deps.maxBytes} bytes` }));
      }
      throw error;
    };

    r.post(
      '/operator/v1/legal_entities/:legal_entity_id/mail',
      {
        // Authentication first, then the content type, both before the (up to MAIL_MAX_BYTES) body is read.
        onRequest: [deps.operatorAuth, requirePdf],
        bodyLimit: deps.maxBytes,
        errorHandler: uploadErrors,
        // The facts are query parameters; the file is the body itself.
        config: { inputAt: (path) => (path[0] === 'file' ? ['body'] : ['query', ...path]) },
        schema: {
          operationId: 'operatorUploadMail',
          tags,
          security: OPERATOR_SECURITY,
          summary: 'Record a piece of mail for a legal entity (upload its PDF)',
          description:
            `The request body is the PDF itself, with \`Content-Type: ${PDF}\` (anything else is a 415). It must start with \`%PDF-\` and end ` +
            'with `%%EOF` (a truncated upload is a 422) and be at most MAIL_MAX_BYTES (20 MiB by default; 413 above). The file is stored ' +
            'durably under its SHA-256 before the item is recorded. `type` defaults to `registered-agent`, `received` to today (UTC).',
          params: OperatorEntityParamsSchema,
          querystring: UploadQuerySchema,
          response: { 201: OperatorMailSchema, ...errorResponses(401, 404, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const item = await deps.mail.ingest({
          legalEntityId: request.params.legal_entity_id,
          regionCode: q.region ?? null,
          type: q.type ?? null,
          receivedOn: q.received ?? null,
          sender: q.sender ?? null,
          subject: q.subject ?? null,
          fileName: q.file_name ?? null,
          bytes: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          inTransaction: (trx, item) =>
            deps.audit.record(trx, {
              operator: operatorPrincipalOf(request),
              action: 'mail_item.create',
              subjectType: 'mail_item',
              subjectId: item.id,
              legalEntityId: item.legalEntityId,
              details: { type: q.type ?? 'registered-agent', region: q.region ?? null },
            }),
        });
        return reply.code(201).send(toOperatorMail(item));
      },
    );

    r.get(
      '/operator/v1/legal_entities/:legal_entity_id/mail',
      {
        onRequest: deps.operatorAuth,
        config: { inputAt: 'query' },
        schema: {
          operationId: 'operatorListMail',
          tags,
          security: OPERATOR_SECURITY,
          summary: 'Mail recorded for a legal entity',
          description: 'Newest received first; `start_date` and `end_date` are inclusive.',
          params: OperatorEntityParamsSchema,
          querystring: MailQuerySchema,
          response: { 200: Type.Array(OperatorMailSchema), ...errorResponses(401, 404, 422) },
        },
      },
      async (request) =>
        (
          await deps.mail.listForOperator(request.params.legal_entity_id, {
            startDate: request.query.start_date,
            endDate: request.query.end_date,
          })
        ).map(toOperatorMail),
    );
  };
}
