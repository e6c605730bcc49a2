import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, Nullable, StringEnum } from '../../http/schemas.js';
import { CONNECTION_STATUSES, type ConnectionsService } from '../connections/contract.js';
import { OPERATOR_SECURITY, OperatorEntityParamsSchema, type OperatorHook } from './operator-auth.js';
import type { OperatorsService } from './operators.service.js';

const ConnectionStatusSchema = StringEnum(CONNECTION_STATUSES);
const OperatorConnection = Type.Object(
  {
    id: Type.String(),
    platform_id: Type.String(),
    agency_account_id: Type.String(),
    status: ConnectionStatusSchema,
    status_reason: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    status_changed_at: Type.String({ format: 'date-time' }),
    events: Type.Array(
      Type.Object({
        from_status: Nullable(ConnectionStatusSchema),
        to_status: ConnectionStatusSchema,
        reason: Nullable(Type.String()),
        occurred_at: Type.String({ format: 'date-time' }),
      }),
      { description: 'Every status change, oldest first (creation has no from_status).' },
    ),
  },
  { title: 'OperatorConnection' },
);

/** The operator API of a legal entity's account connections, read through the connections service. */
export function operatorConnectionRoutes(deps: {
  operators: Pick<OperatorsService, 'requireLegalEntity'>;
  connections: Pick<ConnectionsService, 'listWithEvents'>;
  operatorAuth: OperatorHook;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const common = { onRequest: deps.operatorAuth };
    const tags = ['Operator'];
    const security = OPERATOR_SECURITY;

    r.get(
      '/operator/v1/legal_entities/:legal_entity_id/connections',
      {
        ...common,
        schema: {
          operationId: 'operatorListConnections',
          tags,
          security,
          summary: 'Account connections of a legal entity, each with its transition log',
          params: OperatorEntityParamsSchema,
          response: { 200: Type.Array(OperatorConnection), ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        await deps.operators.requireLegalEntity(request.params.legal_entity_id);
        return deps.connections.listWithEvents(request.params.legal_entity_id);
      },
    );
  };
}
