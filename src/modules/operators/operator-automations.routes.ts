import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BoundedString, errorResponses, Nullable } from '../../http/schemas.js';
import type { OperatorAutomations } from './back-office.views.js';
import { OPERATOR_SECURITY, operatorPrincipalOf, type OperatorHook } from './operator-auth.js';
import {
  AutomationParams,
  AutomationStatus,
  oneAutomation,
  OperatorAutomation,
  toOperatorAutomation,
} from './operator-automations.views.js';

const MAX_PAGE = 200;

const QueueQuery = Type.Object({
  region: Type.Optional(BoundedString(2, { description: 'Two-letter state code.' })),
  agency_id: Type.Optional(BoundedString(100)),
  status: Type.Optional(AutomationStatus),
  platform_id: Type.Optional(BoundedString(64)),
  assigned_to: Type.Optional(BoundedString(64, { description: '`me`, `unassigned`, or an operator key id; all when absent.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 50 })),
  cursor: Type.Optional(BoundedString(500, { description: 'The `next_cursor` of the previous page.' })),
});

/**
 * The operator API of the automations work queue (/operator/v1/automations…): the queue and one automation, read
 * through the same service calls as the back office's pages. What operators do to an automation is in
 * operator-automation-actions.routes.ts.
 */
export function operatorAutomationRoutes(deps: { automations: OperatorAutomations; operatorAuth: OperatorHook }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['Operator'];
    const security = OPERATOR_SECURITY;
    const common = { onRequest: deps.operatorAuth };

    r.get(
      '/operator/v1/automations',
      {
        ...common,
        config: { inputAt: 'query' },
        schema: {
          operationId: 'operatorAutomationQueue',
          tags,
          security,
          summary: 'The work queue: automations waiting on a person, due first',
          querystring: QueueQuery,
          response: {
            200: Type.Object(
              { items: Type.Array(OperatorAutomation), next_cursor: Nullable(Type.String()) },
              { title: 'OperatorAutomationQueue' },
            ),
            ...errorResponses(401, 422),
          },
        },
      },
      async (request) => {
        const q = request.query;
        const assignedTo = q.assigned_to === 'me' ? operatorPrincipalOf(request).keyId : q.assigned_to;
        const page = await deps.automations.queue({
          limit: q.limit ?? 50,
          ...(q.region && { region: q.region.toUpperCase() }),
          ...(q.agency_id && { agencyId: q.agency_id }),
          ...(q.status && { status: q.status }),
          ...(q.platform_id && { platformId: q.platform_id }),
          ...(assignedTo && { assignedTo }),
          ...(q.cursor && { cursor: q.cursor }),
        });
        return { items: page.items.map(toOperatorAutomation), next_cursor: page.nextCursor };
      },
    );

    r.get(
      '/operator/v1/automations/:automation_id',
      {
        ...common,
        schema: {
          operationId: 'operatorGetAutomation',
          tags,
          security,
          summary: 'One automation: its task, input (masked), log and outputs',
          params: AutomationParams,
          response: oneAutomation,
        },
      },
      async (request) => toOperatorAutomation(await deps.automations.get(request.params.automation_id)),
    );
  };
}
