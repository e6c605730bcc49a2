import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { BoundedString, errorResponses, HttpUrlString, Nullable, StringEnum } from '../../http/schemas.js';
import { AGENCY_DATA_STATUSES, type AccountsService } from '../accounts/contract.js';
import { RegionInput } from '../legal-entities/contract.js';
import { OPERATOR_SECURITY, OperatorEntityParamsSchema, operatorPrincipalOf, type OperatorHook } from './operator-auth.js';
import type { AuditService } from '../audit/contract.js';
import { inBody, OperatorAgencyAccount, OperatorLogin, toAccount, toLogin } from './operator-accounts.views.js';

const SECRET_TEXT = 1000;

const NewAgencyAccountBody = Type.Object(
  {
    region: RegionInput,
    agency_id: BoundedString(100, {
      description: 'An agency of the catalog for that region, e.g. `ca-edd` (`statehouse catalog list --region CA`).',
    }),
    name: BoundedString(200, { minLength: 1, description: 'e.g. "Employer payroll tax account".' }),
    data: Type.Optional(
      Type.Array(
        Type.Object(
          {
            name: BoundedString(200, { minLength: 1 }),
            description: Type.Optional(Nullable(BoundedString(200))),
            value: Type.Optional(Nullable(BoundedString(200))),
            status: Type.Optional(StringEnum(AGENCY_DATA_STATUSES, { description: 'Defaults to `done` with a value, `todo` without.' })),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100 },
      ),
    ),
  },
  { title: 'OperatorNewAgencyAccount', additionalProperties: false },
);

const SecretsBody = Type.Object(
  {
    username: BoundedString(SECRET_TEXT, { minLength: 1 }),
    password: BoundedString(SECRET_TEXT, { minLength: 1 }),
    security_answers: Type.Optional(
      Type.Array(
        Type.Object(
          { question: BoundedString(SECRET_TEXT, { minLength: 1 }), answer: BoundedString(SECRET_TEXT, { minLength: 1 }) },
          { additionalProperties: false },
        ),
        { maxItems: 20 },
      ),
    ),
    totp_seed: Type.Optional(BoundedString(SECRET_TEXT, { minLength: 1, description: "Base32 seed of the portal's authenticator app." })),
  },
  {
    title: 'OperatorLoginSecrets',
    additionalProperties: false,
    description: 'Encrypted at rest; never returned, logged or echoed in an error.',
  },
);

const NewLoginBody = Type.Object(
  {
    region: RegionInput,
    name: BoundedString(200, { minLength: 1 }),
    login_url: HttpUrlString({ description: "The agency portal's sign-in page." }),
    agency_account_id: Type.Optional(Nullable(BoundedString(64))),
    is_supported: Type.Optional(Type.Boolean({ default: false })),
    secrets: SecretsBody,
  },
  { title: 'OperatorNewLogin', additionalProperties: false },
);

const RevealsQuery = Type.Object({
  legal_entity_id: Type.Optional(BoundedString(64)),
  platform_id: Type.Optional(BoundedString(64)),
});
const Reveal = Type.Object(
  {
    id: Type.String(),
    login_id: Type.String(),
    login_name: Type.String(),
    legal_entity_id: Type.String(),
    platform_id: Type.String(),
    hosted_session_id: Type.String(),
    browser_session_id: Type.String(),
    revealed_at: Type.String({ format: 'date-time' }),
  },
  { title: 'OperatorLoginReveal' },
);

/**
 * The operator API of what the people running Statehouse record for a legal entity at its agencies: agency
 * accounts, logins (credentials into the vault), and the trail of who viewed those credentials. Authenticated by
 * operator keys only; platform API keys and access tokens are refused. The same accounts service as the CLI.
 */
export function operatorAccountRoutes(deps: {
  accounts: AccountsService;
  operatorAuth: OperatorHook;
  audit: Pick<AuditService, 'record'>;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const common = { onRequest: deps.operatorAuth };
    const tags = ['Operator'];
    const security = OPERATOR_SECURITY;

    r.get(
      '/operator/v1/legal_entities/:legal_entity_id/agency_accounts',
      {
        ...common,
        schema: {
          operationId: 'operatorListAgencyAccounts',
          tags,
          security,
          summary: 'Agency accounts and logins of any legal entity',
          params: OperatorEntityParamsSchema,
          response: { 200: Type.Array(OperatorAgencyAccount), ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => {
        const id = request.params.legal_entity_id;
        return (await deps.accounts.listAccountsForOperator(id)).map((a) => toAccount(id, a));
      },
    );

    r.post(
      '/operator/v1/legal_entities/:legal_entity_id/agency_accounts',
      {
        ...common,
        config: { inputAt: inBody },
        schema: {
          operationId: 'operatorCreateAgencyAccount',
          tags,
          security,
          summary: 'Record an agency account of a legal entity',
          description: "The agency must be one of the catalog's agencies for the region. Returns the account (201).",
          params: OperatorEntityParamsSchema,
          body: NewAgencyAccountBody,
          response: { 201: OperatorAgencyAccount, ...errorResponses(401, 404, 422) },
        },
      },
      async (request, reply) => {
        const id = request.params.legal_entity_id;
        const body = request.body;
        const row = await deps.accounts.createAccount(
          id,
          { region_code: body.region, agency_id: body.agency_id, name: body.name, ...(body.data && { data: body.data }) },
          (trx, created) =>
            deps.audit.record(trx, {
              operator: operatorPrincipalOf(request),
              action: 'agency_account.create',
              subjectType: 'agency_account',
              subjectId: created.id,
              legalEntityId: id,
              details: { region: body.region, agency_id: body.agency_id, name: body.name },
            }),
        );
        return reply.code(201).send(toAccount(id, deps.accounts.newAccountView(row)));
      },
    );

    r.post(
      '/operator/v1/legal_entities/:legal_entity_id/logins',
      {
        ...common,
        config: { secretInputs: [['body', 'secrets']], inputAt: inBody },
        schema: {
          operationId: 'operatorCreateLogin',
          tags,
          security,
          summary: 'Record a login (credentials go into the vault)',
          description:
            'The secrets are encrypted (AES-256-GCM) before they reach the database and are never returned. Returns the login (201).',
          params: OperatorEntityParamsSchema,
          body: NewLoginBody,
          response: { 201: OperatorLogin, ...errorResponses(401, 404, 422) },
        },
      },
      async (request, reply) => {
        const id = request.params.legal_entity_id;
        const body = request.body;
        // The service checks that the agency account exists for this entity and is in this region (422s).
        // The secrets are never part of the trail: which login, not what it holds.
        const login = await deps.accounts.createLogin(
          id,
          {
            agency_account_id: body.agency_account_id ?? null,
            region_code: body.region,
            name: body.name,
            login_url: body.login_url,
            is_supported: body.is_supported ?? false,
            secrets: body.secrets,
          },
          (trx, created) =>
            deps.audit.record(trx, {
              operator: operatorPrincipalOf(request),
              action: 'login.create',
              subjectType: 'login',
              subjectId: created.id,
              legalEntityId: id,
              details: { region: body.region, name: body.name, agency_account_id: body.agency_account_id ?? null },
            }),
        );
        return reply.code(201).send(toLogin(login));
      },
    );

    r.get(
      '/operator/v1/login_reveals',
      {
        ...common,
        schema: {
          operationId: 'operatorListLoginReveals',
          tags,
          security,
          summary: "Audit trail: who viewed which login's credentials, when",
          description: 'Newest first, at most 1,000 rows; filter by legal entity and/or platform.',
          querystring: RevealsQuery,
          response: { 200: Type.Array(Reveal), ...errorResponses(401, 422) },
        },
      },
      async (request) =>
        (await deps.accounts.listReveals({ legalEntityId: request.query.legal_entity_id, platformId: request.query.platform_id })).map(
          (row) => ({ ...row, revealed_at: new Date(row.revealed_at).toISOString() }),
        ),
    );
  };
}
