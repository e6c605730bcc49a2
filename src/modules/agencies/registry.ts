import type { AgencyConnector, AgencyConnectors, FilingConnector } from './contract.js';
import { createSandboxAccountConnector } from './sandbox/sandbox-accounts.js';
import { createSandboxFilingConnector } from './sandbox/sandbox-filings.js';

/**
 * The agencies with a connector of their own, by catalog agency id (e.g. `ca-edd`): one folder beside
 * sandbox/ and one line here each. None ships yet; AGENCY_CONNECTORS says which of these are used.
 */
export const AGENCY_IMPLEMENTATIONS: Readonly<Record<string, () => AgencyConnector>> = {};

export interface AgencyConnectorsOptions {
  /** AGENCY_CONNECTORS: the agency ids whose own connector is used (each must be in the implementations). */
  enabled: readonly string[];
  /** The sandbox stands in for every agency without a connector of its own: for account connections, for filings. */
  sandbox: { accounts: boolean; filings: boolean; filingStepMs: number };
  /** What `enabled` chooses from (default AGENCY_IMPLEMENTATIONS; tests give their own). */
  implementations?: Readonly<Record<string, () => AgencyConnector>>;
}

export class AgencyConnectorsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgencyConnectorsError';
  }
}

/** Which connector works for an agency: its own when enabled, else the sandbox when on, else none. */
export function createAgencyConnectors(options: AgencyConnectorsOptions): AgencyConnectors {
  const implementations = options.implementations ?? AGENCY_IMPLEMENTATIONS;
  const byAgency = new Map<string, AgencyConnector>();
  for (const agencyId of options.enabled) {
    const create = Object.hasOwn(implementations, agencyId) ? implementations[agencyId] : undefined;
    if (!create) {
      const known = Object.keys(implementations);
      throw new AgencyConnectorsError(
        `AGENCY_CONNECTORS names '${agencyId}', which has no connector (src/modules/agencies/registry.ts; known: ${known.join(', ') || 'none'})`,
      );
    }
    byAgency.set(agencyId, create());
  }
  const sandboxAccounts = options.sandbox.accounts ? createSandboxAccountConnector() : undefined;
  const sandboxFilings = options.sandbox.filings ? createSandboxFilingConnector({ stepMs: options.sandbox.filingStepMs }) : undefined;
  const filingsByName = new Map<string, FilingConnector>(
    [...[...byAgency.values()].map((c) => c.filings), sandboxFilings]
      .filter((c): c is FilingConnector => c !== undefined)
      .map((c) => [c.name, c]),
  );
  return {
    accounts: { forAgency: (agencyId) => byAgency.get(agencyId)?.accounts ?? sandboxAccounts },
    filings: {
      forAgency: (agencyId) => byAgency.get(agencyId)?.filings ?? sandboxFilings,
      byName: (name) => filingsByName.get(name),
    },
  };
}
