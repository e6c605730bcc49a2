// What the handbook's audience services share: their dependencies, the draft and its derivation over the
// entity's locations, who acknowledged which version, and whether two documents say the same.
import type { HandbookCatalog } from '../../catalog/handbook.js';
import type { Db } from '../../db/database.js';
import type { AccessScope } from '../../http/principals.js';
import type { HandbookDocument } from '../../pages/handbook-document.js';
import type { EventRecorder } from '../events/contract.js';
import type { LocationsService } from '../locations/contract.js';
import type { Replanner } from '../planning/contract.js';
import type { TaskCompletionStore } from '../tasks/contract.js';
import { acknowledgementStats, deriveHandbook, type AcknowledgementStats, type HandbookDraft } from './handbook.fns.js';
import type { HandbookLinks } from './handbook-links.js';
import { createHandbookRepository, type HandbookRepository } from './handbook.repository.js';
import type { EmployeeStatus } from './handbook.types.js';

export interface HandbookDeps {
  db: Db;
  catalog: HandbookCatalog;
  /** Employee counts are the locations' own fact: read and written through the locations service (which re-plans). */
  locations: Pick<LocationsService, 'list' | 'updateMany'>;
  /** The entity's planning lock and re-planning, for the changes publishing races with. */
  planning: Replanner;
  events: EventRecorder;
  /** Publishing completes the handbook tasks of the covered states through the tasks module's port (it owns the table). */
  tasks: TaskCompletionStore;
  links: HandbookLinks;
  now: () => Date;
  repositoryFor?: (db: Db) => HandbookRepository;
}

export const repositoryOf = (deps: Pick<HandbookDeps, 'repositoryFor'>) => deps.repositoryFor ?? createHandbookRepository;

export async function draftOf(repo: HandbookRepository, legalEntityId: string): Promise<HandbookDraft> {
  const row = await repo.findDraft(legalEntityId);
  return { answers: row?.answers ?? {}, choices: row?.choices ?? {} };
}

/** The draft, what it derives to with the entity's locations, and those locations as the handbook reads them. */
export async function derive(deps: Pick<HandbookDeps, 'catalog' | 'locations'>, repo: HandbookRepository, scope: AccessScope) {
  const [draft, locations] = await Promise.all([draftOf(repo, scope.legalEntityId), deps.locations.list(scope)]);
  const handbookLocations = locations.map((l) => ({
    regionCode: l.region.code,
    hasEmployees: l.config.has_employees,
    employeeCount: l.config.employee_count,
  }));
  return { draft, derivation: deriveHandbook(deps.catalog, handbookLocations, draft), locations: handbookLocations };
}

/** Each active employee's acknowledged version numbers. */
export async function acknowledgedBy(repo: HandbookRepository, legalEntityId: string): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const a of await repo.findAcknowledgements(legalEntityId)) out.set(a.employee_id, [...(out.get(a.employee_id) ?? []), a.number]);
  return out;
}

export async function statsOf(
  repo: HandbookRepository,
  legalEntityId: string,
  latestNumber: number | null,
): Promise<AcknowledgementStats | null> {
  if (latestNumber === null) return null;
  const [employees, acks] = await Promise.all([repo.findEmployees(legalEntityId), acknowledgedBy(repo, legalEntityId)]);
  return acknowledgementStats(
    employees.map((e) => ({ hasEmail: !!e.email, acknowledged: acks.get(e.id) ?? [] })),
    latestNumber,
  );
}

export const statusOf = (acknowledged: number[], hasEmail: boolean, latest: number): EmployeeStatus =>
  acknowledged.includes(latest) ? 'signed' : acknowledged.length ? 'outdated' : hasEmail ? 'pending' : 'missing_email';

/** A value as JSON with sorted keys: jsonb does not keep the key order a document was written with. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

/** Same content (sections, texts, regions, business name, contact): only the version number and date may differ. */
export const sameContent = (a: HandbookDocument, b: HandbookDocument) =>
  canonical({ ...a, version: 0, publishedAt: '' }) === canonical({ ...b, version: 0, publishedAt: '' });

/** The name a document and the builder give a business without one. */
export const businessNameOf = (entity: { business_name: string | null } | undefined) => entity?.business_name || 'Your company';
