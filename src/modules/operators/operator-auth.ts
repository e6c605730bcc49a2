import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { BoundedString } from '../../http/schemas.js';
import type { OperatorPrincipal, OperatorsService } from './operators.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the operator hook: who is calling the operator API. */
    operator: OperatorPrincipal | null;
  }
}

export type OperatorHook = (request: FastifyRequest) => Promise<void>;

/** An onRequest hook for operator routes: authentication before the body is read, as everywhere. */
export function registerOperatorAuth(app: FastifyInstance, operators: OperatorsService): OperatorHook {
  app.decorateRequest('operator', null);
  return async (request) => {
    request.operator = await operators.authenticate(request.headers.authorization);
  };
}

/** For handlers behind the operator hook, which guarantees it is set. */
export const operatorPrincipalOf = (request: FastifyRequest) => request.operator as OperatorPrincipal;

/** OpenAPI security requirement of operator routes. */
export const OPERATOR_SECURITY = [{ operatorKey: [] }];

/** Path parameters of the operator operations on one legal entity. */
export const OperatorEntityParamsSchema = Type.Object({ legal_entity_id: BoundedString(64) });
