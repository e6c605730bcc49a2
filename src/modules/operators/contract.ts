/**
 * The operators module's contract: who an operator is, the hook and OpenAPI bits other modules' operator routes
 * use. The trail of their actions is the audit module's.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { BoundedString } from '../../http/schemas.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the operator hook: who is calling the operator API. */
    operator: OperatorPrincipal | null;
  }
}

/** The operator (a person or system running Statehouse) an operator key authenticates. */
export interface OperatorPrincipal {
  keyId: string;
  name: string;
}

/** The onRequest hook of operator routes (authentication before the body is read, as everywhere). */
export type OperatorHook = (request: FastifyRequest) => Promise<void>;

/** For handlers behind the operator hook, which guarantees it is set. */
export const operatorPrincipalOf = (request: FastifyRequest) => request.operator as OperatorPrincipal;

/** OpenAPI security requirement of operator routes. */
export const OPERATOR_SECURITY = [{ operatorKey: [] }];

/** Path parameters of the operator operations on one legal entity. */
export const OperatorEntityParamsSchema = Type.Object({ legal_entity_id: BoundedString(64) });

/** Where the back office's one-time sign-in links point (their secret follows; never logged). */
export const OPERATOR_LINK_PATH = '/operator/link/';
