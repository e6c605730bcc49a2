// The engine's local business tax scenarios (src/engine/golden-local-*.test.ts): one catalog, a date, the inputs.
import { loadCatalog } from '../../src/catalog/catalog.js';
import type { planTasks } from '../../src/engine/engine.js';
import type { EngineInput, LocationInput, TaskState } from '../../src/engine/engine.types.js';

export const catalog = loadCatalog();
export const today = '2026-11-22';

export const location = (regionCode: string, over: Partial<LocationInput> = {}): LocationInput => ({
  regionCode,
  hasEmployees: true,
  hasPhysicalLocation: true,
  employeeCount: 4,
  ...over,
});
export const locality = (regionCode: string, id: string, yes: boolean): TaskState => ({
  kind: 'question',
  definitionId: 'in-locality',
  regionCode,
  periodKey: id,
  status: 'done',
  completedOn: '2026-11-10',
  answer: yes,
});
export const answer = (definitionId: string, regionCode: string, value: unknown): TaskState => ({
  kind: 'question',
  definitionId,
  regionCode,
  status: 'done',
  completedOn: '2026-11-10',
  answer: value,
});

/** The state's foreign registration date, answered, so that the yearly dates are exact rather than estimated. */
export const registered = (regionCode: string): TaskState => answer('registration-date', regionCode, '2022-03-01');

export const input = (entity: Partial<EngineInput['entity']>, locations: LocationInput[], tasks: TaskState[] = []): EngineInput => ({
  today,
  tasks,
  entity: {
    entityType: 'llc',
    taxClassification: 'partnership',
    incorporationRegion: 'DE',
    incorporationDate: '2021-05-20',
    accountingYearEnd: 12,
    onboardedOn: '2026-11-01',
    ...entity,
  },
  locations,
});

/** California's city questions, all answered no except those named. */
export const california = (yes: string[]) =>
  ['ca-los-angeles', 'ca-long-beach', 'ca-oakland', 'ca-sacramento', 'ca-san-diego', 'ca-san-francisco', 'ca-san-jose'].map((id) =>
    locality('CA', id, yes.includes(id)),
  );
export const CA_ASKED = [
  '?ca-long-beach',
  '?ca-los-angeles',
  '?ca-oakland',
  '?ca-sacramento',
  '?ca-san-diego',
  '?ca-san-francisco',
  '?ca-san-jose',
];
export const CA_CITIES = ['ca-los-angeles', 'ca-long-beach', 'ca-oakland', 'ca-sacramento', 'ca-san-diego', 'ca-san-jose'];

/** The region's local tasks (`ids` starting with the prefix) and locality questions, as `id due` lines. */
export const local = (tasks: ReturnType<typeof planTasks>, region: string, prefixes: string[]) =>
  tasks
    .filter(
      (t) =>
        t.regionCode === region &&
        (t.kind === 'question' ? t.definitionId === 'in-locality' : prefixes.some((p) => t.definitionId.startsWith(p))),
    )
    .map((t) =>
      t.kind === 'question' ? `?${t.periodKey}` : `${t.definitionId} ${t.dueDate ?? '-'}${t.dueDateBasis?.exact === false ? ' ~' : ''}`,
    )
    .sort();
