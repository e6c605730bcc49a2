// The agency work's wiring (for app.ts): one connector per agency (AGENCY_CONNECTORS), else the sandbox — always
// for account connections, for filings only with AUTOMATION_SANDBOX — and the two modules that use them.
import type { Config } from './config.js';
import { createAgenciesModule } from './modules/agencies/index.js';
import { createAutomationsModule, type AutomationsModuleDeps } from './modules/automations/index.js';
import { createConnectionsModule, type ConnectionsModuleDeps } from './modules/connections/index.js';

export type AgencyWorkWiring = Omit<AutomationsModuleDeps, 'settings' | 'connectors' | 'accounts'> &
  Pick<ConnectionsModuleDeps, 'sessions'> & {
    config: Config;
    accounts: AutomationsModuleDeps['accounts'] & ConnectionsModuleDeps['accounts'];
  };

export function createAgencyWork({ config, sessions, ...shared }: AgencyWorkWiring) {
  const agencies = createAgenciesModule({
    enabled: config.agencyConnectors,
    sandbox: { accounts: true, filings: config.automations.sandbox, filingStepMs: config.automations.sandboxStepMs },
  }).connectors;
  const connectionsModule = createConnectionsModule({
    db: shared.db,
    accounts: shared.accounts,
    sessions,
    jobs: shared.jobs,
    catalog: shared.catalog,
    connectors: agencies.accounts,
    stepMs: config.sandboxConnectorStepMs,
    hostedSessionTtlSeconds: config.hostedSessionTtlSeconds,
    now: shared.now,
    events: shared.events,
  });
  const automationsModule = createAutomationsModule({ ...shared, settings: config.automations, connectors: agencies.filings });
  return { connectionsModule, automationsModule };
}
