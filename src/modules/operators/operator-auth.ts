import type { FastifyInstance } from 'fastify';
import type { OperatorHook } from './contract.js';
import type { OperatorsService } from './operators.service.js';

export { OPERATOR_SECURITY, OperatorEntityParamsSchema, operatorPrincipalOf, type OperatorHook } from './contract.js';

/** Registers the request's `operator` and returns the onRequest hook of operator routes. */
export function registerOperatorAuth(app: FastifyInstance, operators: OperatorsService): OperatorHook {
  app.decorateRequest('operator', null);
  return async (request) => {
    request.operator = await operators.authenticate(request.headers.authorization);
  };
}
