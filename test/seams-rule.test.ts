import { describe, expect, it } from 'vitest';
import { contractSides, seamViolation } from '../scripts/seams-rule.js';

describe('the seam rule (npm run seams)', () => {
  it("lets module code reach another module's contract, its own files and the layers below", () => {
    expect(seamViolation('modules/webhooks/index.ts', 'modules/operators/contract.ts')).toBeNull();
    expect(seamViolation('modules/webhooks/webhooks.routes.ts', 'modules/webhooks/webhooks.schemas.ts')).toBeNull();
    expect(seamViolation('modules/webhooks/webhooks.routes.ts', 'http/schemas.ts')).toBeNull();
    expect(seamViolation('modules/webhooks/webhooks.routes.ts', 'jobs/queue.ts')).toBeNull();
  });

  it("refuses another module's internals and any module's index.ts, its own too", () => {
    expect(seamViolation('modules/mail/mail.service.ts', 'modules/operators/audit.routes.ts')).toMatch(/operators's internals/);
    expect(seamViolation('modules/mail/mail.service.ts', 'modules/events/index.ts')).toMatch(/index\.ts of events/);
    expect(seamViolation('modules/mail/mail.routes.ts', 'modules/mail/index.ts')).toMatch(/index\.ts of mail/);
  });

  it('keeps contracts to the layers below and other contracts', () => {
    expect(seamViolation('modules/audit/contract.ts', 'modules/operators/contract.ts')).toBeNull();
    expect(seamViolation('modules/audit/contract.ts', 'db/database.ts')).toBeNull();
    expect(seamViolation('modules/audit/contract.ts', 'crypto/vault.ts')).toBeNull();
    expect(seamViolation('modules/audit/contract.ts', 'modules/audit/audit.service.ts')).toBeNull();
    expect(seamViolation('modules/audit/contract.ts', 'modules/operators/operators.service.ts')).toMatch(/a contract imports only/);
    expect(seamViolation('modules/audit/contract.ts', 'jobs/queue.ts')).toMatch(/a contract imports only/);
  });

  it("holds the files a contract re-exports to the contract's rule", () => {
    const imports: Record<string, string[]> = {
      'modules/audit/contract.ts': ['modules/audit/audit.types.ts', 'modules/events/contract.ts'],
      'modules/audit/audit.types.ts': ['modules/audit/audit.fns.ts', 'lib/ids.ts'],
      'modules/audit/audit.fns.ts': ['modules/operators/operators.service.ts'],
      'modules/audit/audit.routes.ts': ['jobs/queue.ts'],
    };
    const side = contractSides(Object.keys(imports), (file) => imports[file] ?? []);
    expect([...side].sort()).toEqual(['modules/audit/audit.fns.ts', 'modules/audit/audit.types.ts', 'modules/audit/contract.ts']);
    expect(seamViolation('modules/audit/audit.types.ts', 'lib/ids.ts', side.has('modules/audit/audit.types.ts'))).toBeNull();
    expect(seamViolation('modules/audit/audit.fns.ts', 'modules/operators/contract.ts', true)).toBeNull();
    expect(seamViolation('modules/audit/audit.fns.ts', 'jobs/queue.ts', true)).toMatch(/reached by audit's contract/);
    // A file the contract does not reach keeps the ordinary rule.
    expect(seamViolation('modules/audit/audit.routes.ts', 'jobs/queue.ts', side.has('modules/audit/audit.routes.ts'))).toBeNull();
  });

  it('lets the demo compose modules like app.ts, and no other module', () => {
    expect(seamViolation('modules/demo/index.ts', 'modules/planning/index.ts')).toBeNull();
    expect(seamViolation('modules/demo/demo-automations.ts', 'modules/automations/index.ts')).toBeNull();
    expect(seamViolation('modules/demo/demo.service.ts', 'modules/planning/planning.service.ts')).toMatch(/planning's internals/);
    expect(seamViolation('modules/auth/index.ts', 'modules/legal-entities/index.ts')).toMatch(/index\.ts of legal-entities/);
  });

  it('leaves tests and code outside modules alone', () => {
    expect(seamViolation('modules/mail/mail.service.test.ts', 'modules/events/events.service.ts')).toBeNull();
    expect(seamViolation('app.ts', 'modules/events/index.ts')).toBeNull();
    expect(seamViolation('cli/main.ts', 'modules/operators/audit.routes.ts')).toBeNull();
  });
});
