import { describe, expect, it } from 'vitest';
import { seamViolation } from '../scripts/seams-rule.js';

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
    expect(seamViolation('modules/audit/contract.ts', 'modules/audit/audit.service.ts')).toMatch(/a contract imports only/);
    expect(seamViolation('modules/audit/contract.ts', 'modules/operators/operators.service.ts')).toMatch(/a contract imports only/);
    expect(seamViolation('modules/audit/contract.ts', 'jobs/queue.ts')).toMatch(/a contract imports only/);
  });

  it('leaves tests and code outside modules alone', () => {
    expect(seamViolation('modules/mail/mail.service.test.ts', 'modules/events/events.service.ts')).toBeNull();
    expect(seamViolation('app.ts', 'modules/events/index.ts')).toBeNull();
    expect(seamViolation('cli/main.ts', 'modules/operators/audit.routes.ts')).toBeNull();
  });
});
