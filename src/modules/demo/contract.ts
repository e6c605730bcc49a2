// What the CLI and the benchmark read of the demo: what a seed made, the extras it may take, the key file's name.
import type { AccountsService } from '../accounts/contract.js';
import type { MailService } from '../mail/contract.js';
import type { DemoAutomation, DemoAutomationsService } from './demo-automations.js';

export { DEMO_KEY_FILE, type DemoKeyOptions } from './demo-key.js';

/**
 * Services for the demo's agency account, login and mail (the CLI has them; the benchmark does not need them), and
 * the running server's automations (`serve --demo` only: they need its job queue).
 */
export interface DemoExtras {
  accounts: AccountsService;
  mail: MailService;
  automations?: DemoAutomationsService;
}

export interface DemoData {
  platformId: string;
  apiKey: string;
  legalEntityId: string;
  inactiveLegalEntityId: string;
  /** The active entity's sandbox-filed automation and the one waiting in the operator queue (with `extras.automations`). */
  automations?: { filed: DemoAutomation | null; queued: DemoAutomation | null };
}
