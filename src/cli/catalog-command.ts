import { loadCatalog } from '../catalog/catalog.js';
import type { PlanningService } from '../modules/planning/index.js';
import { print, UsageError } from './output.js';

/** `catalog list`: the catalog's requirements, of one region or all. */
export function catalogList(region: string | undefined, json: boolean) {
  const catalog = loadCatalog();
  const code = region?.toUpperCase();
  if (code && !catalog.regions.has(code)) throw new UsageError(`Unknown region '${region}'`);
  const rows = [...catalog.regions.values()]
    .filter((r) => !code || r.region.code === code)
    .flatMap((r) => r.requirements.map((d) => ({ region: r.region.code, id: d.id, family: d.family, title: d.title, agency: r.agencies.get(d.agency)!.name, confidence: d.confidence })));
  print(json, rows, rows.map((r) => `${r.region}  ${r.id.padEnd(52)} ${r.family.padEnd(24)} ${r.title}${r.confidence === 'uncertain' ? '  (uncertain)' : ''}`).join('\n'));
}

/** `catalog explain`: which requirements apply to an entity, why, and what is planned. */
export async function catalogExplain(planning: Pick<PlanningService, 'explain'>, legalEntityId: string, json: boolean) {
  const { regions, planned } = await planning.explain(legalEntityId);
  const text = regions.map((region) => {
    const lines = region.requirements.map((r) => {
      const mark = r.applies === true ? 'applies' : r.applies === false ? 'no     ' : 'unknown';
      const why = r.applies === true ? r.reasons.map((m) => m.reason).join('; ') : r.applies === null ? `needs: ${r.unknown.join(', ')}` : '';
      const due = planned.filter((p) => p.definitionId === r.id && p.regionCode === region.regionCode).map((p) => p.dueDate ?? 'no due date');
      return `  ${mark}  ${r.id}${due.length ? `  [${due.join(', ')}]` : ''}${why ? `\n           ${why}` : ''}`;
    });
    const questions = planned.filter((p) => p.kind === 'question' && p.regionCode === region.regionCode).map((p) => `  question ${p.definitionId}`);
    return [`${region.regionCode}${region.isHome ? ' (state of incorporation)' : ''}`, ...lines, ...questions].join('\n');
  }).join('\n\n');
  print(json, { regions, planned }, text);
}
