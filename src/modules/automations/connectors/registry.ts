import type { AgencyConnector } from './agency-connector.js';
import { createSandboxAgencyConnector } from './sandbox-agency.js';

export interface AgencyConnectorsOptions {
  /** The sandbox agency (AUTOMATION_SANDBOX): fulfils every agency without a connector of its own. Never in production. */
  sandbox: { enabled: boolean; stepMs: number };
  /** Real connectors by catalog agency id (e.g. `ca-edd`); none ship yet (docs/automations.md, "Writing a real connector"). */
  byAgency?: ReadonlyMap<string, AgencyConnector>;
}

/** Which connector files for an agency: its own, else the sandbox when enabled, else none (the operator queue). */
export function createAgencyConnectors(options: AgencyConnectorsOptions) {
  const sandbox = options.sandbox.enabled ? createSandboxAgencyConnector({ stepMs: options.sandbox.stepMs }) : null;
  const byAgency = options.byAgency ?? new Map<string, AgencyConnector>();
  const byName = new Map<string, AgencyConnector>([...byAgency.values(), ...(sandbox ? [sandbox] : [])].map((c) => [c.name, c]));
  return {
    forAgency: (agencyId: string): AgencyConnector | undefined => byAgency.get(agencyId) ?? sandbox ?? undefined,
    /** The connector an automation's `performer` names (after a restart: the same registry, the same names). */
    byName: (name: string): AgencyConnector | undefined => byName.get(name),
  };
}

export type AgencyConnectors = ReturnType<typeof createAgencyConnectors>;
