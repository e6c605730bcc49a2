import { MAX_AUDIT_PAGE } from '../modules/operators/audit.routes.js';
import type { AuditService } from '../modules/audit/contract.js';
import type { OperatorSessionsService } from '../modules/operators/operator-sessions.service.js';
import type { OperatorsService } from '../modules/operators/operators.service.js';
import { print, UsageError } from './output.js';

/** `operators keys create|list|revoke`: keys of the operator API, shown once on creation. */
export async function operatorKeysCommand(operators: OperatorsService, [action, arg]: string[], json: boolean) {
  if (action === 'create' && arg) {
    const key = await operators.createKey(arg);
    if (json) return print(true, key, '');
    process.stderr.write(`operator key ${key.id} (${key.name}) created; it is shown once, store it now:\n`);
    process.stdout.write(`${key.key}\n`);
    return;
  }
  if (action === 'list') {
    const keys = await operators.listKeys();
    return print(
      json,
      keys,
      keys.map((k) => `${k.id}  ${k.key_hint}  ${k.name}${k.revoked_at ? '  (revoked)' : ''}`).join('\n') || 'no operator keys',
    );
  }
  if (action === 'revoke' && arg) {
    await operators.revokeKey(arg);
    return print(json, { revoked: arg }, `revoked ${arg}`);
  }
  throw new UsageError('Usage: statehouse operators keys create <name> | list | revoke <key_id>');
}

/** `operators login --key-id <id or name>`: a one-time link that signs a browser in to the back office. */
async function loginCommand(sessions: Pick<OperatorSessionsService, 'issueLink'>, keyIdOrName: string | undefined, json: boolean) {
  if (!keyIdOrName) throw new UsageError('Usage: statehouse operators login --key-id <key_id or name>');
  const link = await sessions.issueLink(keyIdOrName);
  if (json)
    return print(
      true,
      { url: link.url, expires_at: link.expires_at, operator_key_id: link.operator.keyId, operator_name: link.operator.name },
      '',
    );
  process.stderr.write(`sign-in link for ${link.operator.name} (${link.operator.keyId}); it works once, until ${link.expires_at}:\n`);
  process.stdout.write(`${link.url}\n`);
}

export interface AuditOptions {
  'legal-entity'?: string;
  'key-id'?: string;
  action?: string;
  limit?: string;
  before?: string;
}

/** `operators audit`: the audit trail, newest first. */
async function auditCommand(audit: Pick<AuditService, 'list'>, options: AuditOptions, json: boolean) {
  const limit = options.limit === undefined ? 50 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_AUDIT_PAGE)
    throw new UsageError(`--limit takes a whole number from 1 to ${MAX_AUDIT_PAGE}`);
  const events = await audit.list({
    limit,
    legalEntityId: options['legal-entity'],
    operatorKeyId: options['key-id'],
    action: options.action,
    before: options.before,
  });
  print(
    json,
    events,
    events.length
      ? events
          .map(
            (e) =>
              `${e.created_at}  ${e.operator.name} (${e.operator.key_id})  ${e.action}  ${e.subject.type} ${e.subject.id}${e.legal_entity_id ? `  ${e.legal_entity_id}` : ''}`,
          )
          .join('\n')
      : 'no audit events',
  );
}

/** `operators keys …`, `operators login`, `operators audit`. */
export async function operatorsCommand(
  module: { operators: OperatorsService; sessions: Pick<OperatorSessionsService, 'issueLink'>; audit: Pick<AuditService, 'list'> },
  sub: string | undefined,
  rest: string[],
  options: AuditOptions,
  json: boolean,
) {
  if (sub === 'keys') return operatorKeysCommand(module.operators, rest, json);
  if (sub === 'login') return loginCommand(module.sessions, options['key-id'] ?? rest[0], json);
  if (sub === 'audit') return auditCommand(module.audit, options, json);
  throw new UsageError('Unknown operators command; see statehouse --help');
}
