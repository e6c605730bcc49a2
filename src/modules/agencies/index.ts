import { createAgencyConnectors, type AgencyConnectorsOptions } from './registry.js';

export type AgenciesModuleDeps = AgencyConnectorsOptions;

/** The agencies' connectors, chosen once from the configuration; connections and automations take theirs from it. */
export function createAgenciesModule(deps: AgenciesModuleDeps) {
  return { connectors: createAgencyConnectors(deps) };
}

export type AgenciesModule = ReturnType<typeof createAgenciesModule>;
