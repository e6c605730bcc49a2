import type { Catalog } from '../catalog/catalog.js';
import type { RequirementDefinition } from '../catalog/catalog.schema.js';
import { evaluate, type RegionFacts } from './criteria.js';
import type { EngineInput, Explanation } from './engine.types.js';
import { answersOf, businessFacts, federalAnchor, federalFacts, localityFacts, regionFacts, regionsOf, salesFacts } from './facts.js';

/** For operators: every requirement of every region considered, whether it applies and why. */
export function explain(catalog: Catalog, input: EngineInput): Explanation[] {
  const home = input.entity.incorporationRegion;
  const locations = new Map(input.locations.map((l) => [l.regionCode, l]));
  const anchor = federalAnchor(catalog, input);
  const business = businessFacts(catalog, input);
  const answers = answersOf(input);
  const describe = (definition: RequirementDefinition, facts: RegionFacts, federal: boolean) => {
    const result = evaluate(definition.applies_when, facts);
    const unknown = [...result.unknown, ...[...result.localities].map((id) => `in_locality ${id}`)];
    return { id: definition.id, title: definition.title, applies: result.value, reasons: result.met, unknown, ...(federal && { federal }) };
  };
  return regionsOf(catalog, input).map((code) => {
    const region = catalog.regions.get(code)!;
    const facts = {
      ...regionFacts(region.region.name, code, code === home, locations.get(code), input.entity, localityFacts(catalog, input, code)),
      business,
      ...salesFacts(answers, code),
    };
    const federal =
      code === anchor ? catalog.federal.requirements.map((d) => describe(d, { ...federalFacts(input, code), business }, true)) : [];
    return {
      regionCode: code,
      isHome: code === home,
      requirements: [...[...region.requirements, ...catalog.employerRequirements].map((d) => describe(d, facts, false)), ...federal],
    };
  });
}
