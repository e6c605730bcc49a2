import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../catalog/catalog.js';
import { loadConfig } from '../../config.js';
import type { AgencyConnector, FilingConnector } from './contract.js';
import { AGENCY_IMPLEMENTATIONS, AgencyConnectorsError, createAgencyConnectors } from './registry.js';

const filings = (name: string): FilingConnector => ({
  name,
  firstStep: 'submit',
  steps: [{ key: 'submit', label: 'Submit' }],
  perform: async () => ({ type: 'rejected', reason: name }),
});
const implementations: Record<string, () => AgencyConnector> = { 'ca-edd': () => ({ filings: filings('ca-edd-portal') }) };
const off = { accounts: false, filings: false, filingStepMs: 0 };

describe('the agencies registry', () => {
  it('an enabled agency gets its own connector, every other one the sandbox when it is on, else none', () => {
    const connectors = createAgencyConnectors({ enabled: ['ca-edd'], sandbox: { ...off, filings: true }, implementations });
    expect(connectors.filings.forAgency('ca-edd')?.name).toBe('ca-edd-portal');
    expect(connectors.filings.forAgency('ny-dol')?.name).toBe('sandbox');
    expect(connectors.filings.byName('ca-edd-portal')?.name).toBe('ca-edd-portal');
    // It has no account connector of its own: connections of its accounts get none (the sandbox is off for them).
    expect(connectors.accounts.forAgency('ca-edd')).toBeUndefined();
    expect(createAgencyConnectors({ enabled: [], sandbox: off, implementations }).filings.forAgency('ca-edd')).toBeUndefined();
    expect(createAgencyConnectors({ enabled: [], sandbox: { ...off, accounts: true } }).accounts.forAgency('ca-edd')?.name).toBe('sandbox');
  });

  it('an implementation is used only when AGENCY_CONNECTORS names it; a name without one stops the start', () => {
    expect(createAgencyConnectors({ enabled: [], sandbox: off, implementations }).filings.byName('ca-edd-portal')).toBeUndefined();
    expect(() => createAgencyConnectors({ enabled: ['tx-twc'], sandbox: off, implementations })).toThrow(AgencyConnectorsError);
    expect(() => createAgencyConnectors({ enabled: ['tx-twc'], sandbox: off, implementations })).toThrow(
      /AGENCY_CONNECTORS names 'tx-twc'/,
    );
  });

  it('every shipped implementation is keyed by an agency of the catalog', () => {
    const agencies = new Set([...loadCatalog().regions.values()].flatMap((r) => [...r.agencies.keys()]));
    for (const agencyId of Object.keys(AGENCY_IMPLEMENTATIONS)) expect(agencies).toContain(agencyId);
  });

  it('AGENCY_CONNECTORS is a comma-separated list of agency ids', () => {
    expect(loadConfig({}).agencyConnectors).toEqual([]);
    expect(loadConfig({ AGENCY_CONNECTORS: 'ca-edd, ny-dol' }).agencyConnectors).toEqual(['ca-edd', 'ny-dol']);
    expect(() => loadConfig({ AGENCY_CONNECTORS: 'CA EDD' })).toThrow(/AGENCY_CONNECTORS must list catalog agency ids/);
  });
});
