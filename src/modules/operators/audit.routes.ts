import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BoundedString, errorResponses, Nullable } from '../../http/schemas.js';
import { HttpError, InvalidInputError } from '../../lib/errors.js';
import { OPERATOR_SECURITY, type OperatorHook } from './operator-auth.js';
import type { AuditService } from '../audit/contract.js';

export const MAX_AUDIT_PAGE = 200;

const AuditQuery = Type.Object({
  legal_entity_id: Type.Optional(BoundedString(64)),
  subject_type: Type.Optional(BoundedString(64, { description: 'e.g. `automation`, `agency_account`, `login`, `mail_item`.' })),
  subject_id: Type.Optional(BoundedString(64)),
  operator_key_id: Type.Optional(BoundedString(64)),
  action: Type.Optional(BoundedString(100, { description: '`<subject>.<verb>`, e.g. `automation.claim`.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AUDIT_PAGE, default: 50 })),
  before: Type.Optional(BoundedString(64, { description: 'The `next_before` of the previous page (the id of its last event).' })),
});

const AuditEvent = Type.Object(
  {
    id: Type.String(),
    operator: Type.Object({ key_id: Type.String(), name: Type.String() }),
    action: Type.String(),
    subject: Type.Object({ type: Type.String(), id: Type.String() }),
    legal_entity_id: Nullable(Type.String()),
    details: Type.Object(
      {},
      { additionalProperties: true, description: 'What the action concerned (never a secret: a revealed field is named, not shown).' },
    ),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'OperatorAuditEvent' },
);

const AuditPage = Type.Object(
  {
    events: Type.Array(AuditEvent, { description: 'Newest first.' }),
    next_before: Nullable(Type.String({ description: 'Pass as `before` for the next page; null on the last page.' })),
  },
  { title: 'OperatorAuditPage' },
);

/** `GET /operator/v1/audit-events`: the operator audit trail, newest first, filtered and paged. */
export function auditRoutes(deps: { audit: Pick<AuditService, 'list'>; operatorAuth: OperatorHook }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    r.get(
      '/operator/v1/audit-events',
      {
        onRequest: deps.operatorAuth,
        config: { inputAt: 'query' },
        schema: {
          operationId: 'operatorListAuditEvents',
          tags: ['Operator'],
          security: OPERATOR_SECURITY,
          summary: 'Audit trail: everything operators did',
          description:
            "Newest first, at most `limit` (1 to 200, default 50) events a page; every filter narrows. Page on with `before` = the previous page's `next_before`.",
          querystring: AuditQuery,
          response: { 200: AuditPage, ...errorResponses(401, 422) },
        },
      },
      async (request) => {
        const q = request.query;
        const limit = q.limit ?? 50;
        try {
          const events = await deps.audit.list({
            limit,
            legalEntityId: q.legal_entity_id,
            subjectType: q.subject_type,
            subjectId: q.subject_id,
            operatorKeyId: q.operator_key_id,
            action: q.action,
            before: q.before,
          });
          return { events, next_before: events.length === limit ? events.at(-1)!.id : null };
        } catch (error) {
          // An unknown `before` is a bad filter, not a missing resource.
          if (error instanceof HttpError && error.status === 404)
            throw new InvalidInputError(['before'], 'Unknown audit event id', q.before);
          throw error;
        }
      },
    );
  };
}
