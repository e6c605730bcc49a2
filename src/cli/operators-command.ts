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
    return print(json, keys, keys.map((k) => `${k.id}  ${k.key_hint}  ${k.name}${k.revoked_at ? '  (revoked)' : ''}`).join('\n') || 'no operator keys');
  }
  if (action === 'revoke' && arg) {
    await operators.revokeKey(arg);
    return print(json, { revoked: arg }, `revoked ${arg}`);
  }
  throw new UsageError('Usage: statehouse operators keys create <name> | list | revoke <key_id>');
}
