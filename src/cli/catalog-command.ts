import path from 'node:path';
import { loadCatalog } from '../catalog/catalog.js';
import { questionTitle } from '../catalog/question-title.js';
import { describeSchedule } from '../engine/describe.js';
import type { PlannedTask } from '../engine/engine.types.js';
import type { PlanningService } from '../modules/planning/index.js';
import { print, UsageError } from './output.js';
import { changesBetween, lastKnownIn } from '../catalog/release-history.js';
import { diffCatalog } from '../catalog/release-digests.js';
import { loadReleases, readDigests, releaseOfCatalog } from '../catalog/releases.js';

/** `catalog list`: the catalog's requirements, of one region (US: the federal ones) or all. */
export function catalogList(region: string | undefined, json: boolean) {
  const catalog = loadCatalog();
  const code = region?.toUpperCase();
  if (code && code !== 'US' && !catalog.regions.has(code)) throw new UsageError(`Unknown region '${region}'`);
  const groups = [...catalog.regions.values()].map((r) => ({ code: r.region.code, agencies: r.agencies, requirements: r.requirements }));
  groups.push({ code: 'US', agencies: catalog.federal.agencies, requirements: catalog.federal.requirements });
  const rows = groups
    .filter((r) => !code || r.code === code)
    .flatMap((r) =>
      r.requirements.map((d) => ({
        region: r.code,
        id: d.id,
        family: d.family,
        title: d.title,
        agency: r.agencies.get(d.agency)!.name,
        confidence: d.confidence,
      })),
    );
  print(
    json,
    rows,
    rows
      .map((r) => `${r.region}  ${r.id.padEnd(52)} ${r.family.padEnd(24)} ${r.title}${r.confidence === 'uncertain' ? '  (uncertain)' : ''}`)
      .join('\n'),
  );
}

/** `catalog explain`: which requirements apply to an entity and why; every planned task's due date, its rule and whether it is exact. */
export async function catalogExplain(planning: Pick<PlanningService, 'explain'>, legalEntityId: string, json: boolean) {
  const catalog = loadCatalog();
  const { regions, planned, plannedWith } = await planning.explain(legalEntityId);
  const questionText = (id: string, regionCode: string, periodKey = 'once') => {
    const question = catalog.questions.find((q) => q.id === id);
    const region = catalog.regions.get(regionCode)?.region;
    return question && region ? questionTitle(catalog, question, regionCode, region.name, periodKey) : id;
  };
  const applicability = regions
    .map((region) => {
      const lines = region.requirements.map((r) => {
        const mark = r.applies === true ? 'applies' : r.applies === false ? 'no     ' : 'unknown';
        const why =
          r.applies === true ? r.reasons.map((m) => m.reason).join('; ') : r.applies === null ? `needs: ${r.unknown.join(', ')}` : '';
        const due = planned
          .filter((p) => p.definitionId === r.id && p.regionCode === region.regionCode)
          .map((p) => p.dueDate ?? 'no due date');
        return `  ${mark}  ${r.federal ? '(federal) ' : ''}${r.id}${due.length ? `  [${due.join(', ')}]` : ''}${why ? `\n           ${why}` : ''}`;
      });
      const questions = planned
        .filter((p) => p.kind === 'question' && p.regionCode === region.regionCode)
        .map(
          (p) =>
            `  question ${p.definitionId}${p.periodKey === 'once' ? '' : ` (${p.periodKey})`}${p.criteriaMet.some((c) => c.key === 'answered') ? ' (answered)' : ''}: ${questionText(p.definitionId, p.regionCode, p.periodKey)}`,
        );
      return [`${region.regionCode}${region.isHome ? ' (state of incorporation)' : ''}`, ...lines, ...questions].join('\n');
    })
    .join('\n\n');
  // An undated task says its schedule in words too (e.g. "No fixed due date (Before the first federal return …)").
  const scheduleText = (id: string) => {
    const definition = catalog.requirement(id)?.definition;
    return definition ? describeSchedule(definition.schedule) : 'No due date';
  };
  const stored =
    plannedWith.revision === null
      ? 'Stored tasks: not planned since catalog revisions were recorded'
      : `Stored tasks last planned with catalog ${plannedWith.release ? `release ${plannedWith.release}` : 'unreleased changes'} (revision ${plannedWith.revision})`;
  print(json, { regions, planned, plannedWith }, `${stored}\n\n${applicability}\n\n${dueDates(planned, questionText, scheduleText)}`);
}

/**
 * One row per planned requirement task, in due-date order (undated last): region, due date, exact or estimated, the
 * requirement; below it the rule in words and, for an estimated date, the question that makes it exact.
 */
function dueDates(
  planned: PlannedTask[],
  questionText: (id: string, regionCode: string) => string,
  scheduleText: (id: string) => string,
): string {
  const tasks = planned
    .filter((p) => p.kind === 'requirement')
    .sort(
      (a, b) =>
        (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999') ||
        a.regionCode.localeCompare(b.regionCode) ||
        a.definitionId.localeCompare(b.definitionId),
    );
  if (tasks.length === 0) return 'Due dates: no planned tasks';
  const rows = tasks.map((t) => ({
    cells: [t.regionCode, t.dueDate ?? 'none', !t.dueDateBasis ? '-' : t.dueDateBasis.exact ? 'exact' : 'estimated', t.definitionId],
    notes: [
      t.dueDateBasis?.rule ?? scheduleText(t.definitionId),
      ...(t.dueDateBasis && !t.dueDateBasis.exact
        ? [
            t.dueDateBasis.questionId
              ? `Estimated: answer ${t.dueDateBasis.questionId} (${questionText(t.dueDateBasis.questionId, t.regionCode)}) to make it exact`
              : 'Estimated: a fact the rule needs is not known yet',
          ]
        : []),
    ],
  }));
  const header = ['REGION', 'DUE', 'DATE IS', 'TASK'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r.cells[i]!.length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}`;
  const indent = ' '.repeat(2 + widths.slice(0, 3).reduce((sum, w) => sum + w + 2, 0));
  return [
    `Due dates (${tasks.length === 1 ? '1 planned task' : `${tasks.length} planned tasks`})`,
    line(header),
    ...rows.flatMap((r) => [line(r.cells), ...r.notes.map((n) => `${indent}${n}`)]),
  ].join('\n');
}

/**
 * `catalog impact [--against <release>]`: how many entities of this installation would gain or lose which
 * requirements if planned with the catalog now; `--against`: only the requirements changed since that release
 * (through the latest release, and the catalog's unreleased changes). Read-only.
 */
export async function catalogImpact(
  planning: Pick<PlanningService, 'impact'>,
  options: { against?: string; catalogDir?: string; json: boolean },
) {
  const catalog = loadCatalog(options.catalogDir);
  const dir = options.catalogDir === undefined ? undefined : path.join(options.catalogDir, 'releases');
  const releases = loadReleases(dir);
  let only: Set<string> | undefined;
  if (options.against !== undefined) {
    const latest = releases.at(-1);
    if (!latest || !releases.some((r) => r.id === options.against)) {
      throw new UsageError(`Unknown release '${options.against}' (releases: ${releases.map((r) => r.id).join(', ') || 'none'})`);
    }
    const digests = readDigests(dir);
    const unreleased = digests ? diffCatalog(digests, catalog, lastKnownIn(releases)).changes : [];
    only = new Set([...changesBetween(releases, options.against, latest.id), ...unreleased].map((c) => c.id));
  }
  const release = releaseOfCatalog(catalog, dir);
  const result = await planning.impact(only);
  const what = release ? `release ${release}` : 'this catalog (unreleased changes)';
  const scope = options.against ? `, the ${only!.size} requirements changed since ${options.against}` : '';
  const rows = result.requirements.map(
    (r) => `  ${r.region.padEnd(4)} ${r.id.padEnd(56)} ${`+${r.gained}`.padStart(7)} ${`-${r.lost}`.padStart(7)}`,
  );
  const plannedWith = result.plannedWith
    .map((p) => `${p.release_id ?? (p.revision === null ? 'not planned yet' : `revision ${p.revision} (unreleased)`)}: ${p.entities}`)
    .join('; ');
  print(
    options.json,
    { release, against: options.against ?? null, ...result },
    [
      `Planning with ${what}${scope}: ${result.affected} of ${result.entities} legal entities would gain or lose tasks.`,
      ...(rows.length
        ? [`  ${'REG'.padEnd(4)} ${'REQUIREMENT'.padEnd(56)} ${'GAIN'.padStart(7)} ${'LOSE'.padStart(7)}`, ...rows]
        : ['  no requirement gained or lost']),
      `Entities last planned with: ${plannedWith || 'none'}`,
    ].join('\n'),
  );
}
