import type { HandbookCatalog } from '../../catalog/handbook.js';
import { regionByCode } from '../../catalog/regions.js';
import type { Db } from '../../db/database.js';
import type { HandbookAnswer, PolicyChoice } from '../../db/schema.js';
import type { AccessScope } from '../../http/principals.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../lib/errors.js';
import { hashSecret } from '../../lib/secrets.js';
import { newId } from '../../lib/ids.js';
import type { HandbookDocument } from '../../pages/handbook-document.js';
import type { EventRecorder, NewEvent } from '../events/contract.js';
import type { LocationsService } from '../locations/index.js';
import type { Replanner } from '../planning/index.js';
import {
  acknowledgementStats,
  answerProblem,
  buildDocument,
  deriveHandbook,
  parseAnswer,
  type AcknowledgementStats,
  type Derivation,
  type HandbookDraft,
} from './handbook.fns.js';
import type { HandbookLinks } from './handbook-links.js';
import { createHandbookRepository, type HandbookRepository } from './handbook.repository.js';

/** The requirement planning plans in each state with employees (src/catalog: the built-in handbook requirement). */
export const HANDBOOK_REQUIREMENT_ID = 'employee-handbook';

export interface HandbookServiceDeps {
  db: Db;
  catalog: HandbookCatalog;
  /** Employee counts are the locations' own fact: read and written through the locations service (which re-plans). */
  locations: Pick<LocationsService, 'list' | 'updateMany'>;
  planning: Replanner;
  events: EventRecorder;
  links: HandbookLinks;
  now: () => Date;
  repositoryFor?: (db: Db) => HandbookRepository;
}

/** Field name → message, for a form shown again with what was typed. */
export type FormErrors = Record<string, string>;

export type EmployeeStatus = 'signed' | 'outdated' | 'pending' | 'missing_email';

export interface BuilderEmployee {
  id: string;
  name: string;
  email: string | null;
  status: EmployeeStatus;
  /** Their link to acknowledge the latest version (none before the first publication). */
  ackUrl: string | null;
}

export interface PublishedVersion {
  id: string;
  number: number;
  publishedAt: Date;
  regions: string[];
}

export interface BuilderState {
  businessName: string;
  draft: HandbookDraft;
  derivation: Derivation;
  /** Employee counts by state code, for the first step. */
  counts: Record<string, number | null>;
  employees: BuilderEmployee[];
  latest: (PublishedVersion & { document: HandbookDocument }) | null;
  versions: PublishedVersion[];
  stats: AcknowledgementStats | null;
  /** The draft would publish exactly the latest version's content: its number (publishing again is refused). */
  unchangedSince: number | null;
}

export interface HandbookSummary {
  adoptable: number;
  publishable: boolean;
  hasPublished: boolean;
  stats: AcknowledgementStats | null;
}

export type AckView =
  | { state: 'unknown' | 'removed' }
  | {
      state: 'ok';
      employeeName: string;
      document: HandbookDocument;
      /** A newer version exists: this one can no longer be acknowledged. */
      superseded: boolean;
      acknowledgedAt: Date | null;
      typedName: string | null;
    };

const MAX_NAME = 200;
const MAX_EMAIL = 254;
const MAX_COUNT = 1_000_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A value as JSON with sorted keys: jsonb does not keep the key order a document was written with. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

/** Same content (sections, texts, regions, business name, contact): only the version number and date may differ. */
const sameContent = (a: HandbookDocument, b: HandbookDocument) =>
  canonical({ ...a, version: 0, publishedAt: '' }) === canonical({ ...b, version: 0, publishedAt: '' });

const statusOf = (acknowledged: number[], hasEmail: boolean, latest: number): EmployeeStatus =>
  acknowledged.includes(latest) ? 'signed' : acknowledged.length ? 'outdated' : hasEmail ? 'pending' : 'missing_email';

/**
 * The employee handbook of an entity: its draft (answers and choices), employees, published versions and their
 * acknowledgements (docs/handbook.md). Publishing freezes a version and completes the handbook tasks it covers,
 * in one transaction with the re-planning and the handbook.published event.
 */
export function createHandbookService(deps: HandbookServiceDeps) {
  const repositoryFor = deps.repositoryFor ?? createHandbookRepository;
  const { catalog } = deps;

  async function draftOf(repo: HandbookRepository, legalEntityId: string): Promise<HandbookDraft> {
    const row = await repo.findDraft(legalEntityId);
    return { answers: row?.answers ?? {}, choices: row?.choices ?? {} };
  }

  async function derive(repo: HandbookRepository, scope: AccessScope) {
    const [draft, locations] = await Promise.all([draftOf(repo, scope.legalEntityId), deps.locations.list(scope)]);
    const handbookLocations = locations.map((l) => ({
      regionCode: l.region.code,
      hasEmployees: l.config.has_employees,
      employeeCount: l.config.employee_count,
    }));
    return { draft, derivation: deriveHandbook(catalog, handbookLocations, draft), locations: handbookLocations };
  }

  /** Each active employee's acknowledged version numbers. */
  async function acknowledgedBy(repo: HandbookRepository, legalEntityId: string): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>();
    for (const a of await repo.findAcknowledgements(legalEntityId)) out.set(a.employee_id, [...(out.get(a.employee_id) ?? []), a.number]);
    return out;
  }

  async function statsOf(
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

  function checkEmployee(input: { name?: string; email?: string }): { value: { name: string; email: string | null }; errors: FormErrors } {
    const name = (input.name ?? '').trim();
    const email = (input.email ?? '').trim();
    const errors: FormErrors = {};
    if (!name) errors.name = "Enter the employee's full name.";
    else if (name.length > MAX_NAME) errors.name = `Use at most ${MAX_NAME} characters.`;
    if (email && (email.length > MAX_EMAIL || !EMAIL.test(email)))
      errors.email = 'Enter an e-mail address like name@example.com, or leave it empty.';
    return { value: { name, email: email || null }, errors };
  }

  /** Two active employees with one address would get each other's mail: refuse it, keeping what was typed. */
  async function duplicateEmail(
    legalEntityId: string,
    email: string | null,
    exceptId: string | null,
    repo = repositoryFor(deps.db),
  ): Promise<FormErrors> {
    if (!email) return {};
    const taken = (await repo.findEmployees(legalEntityId)).find(
      (e) => e.id !== exceptId && e.email?.toLowerCase() === email.toLowerCase(),
    );
    return taken ? { email: `${taken.name} already has this e-mail address. Enter another one, or leave it empty.` } : {};
  }

  async function requireActiveEmployee(repo: HandbookRepository, legalEntityId: string, employeeId: string) {
    const employee = await repo.findEmployee(legalEntityId, employeeId);
    if (!employee || employee.removed_at) throw new NotFoundError(`Employee '${employeeId}' not found`);
    return employee;
  }

  return {
    /** Everything the builder shows. */
    async state(scope: AccessScope): Promise<BuilderState> {
      const repo = repositoryFor(deps.db);
      const [{ draft, derivation, locations }, entity, employees, latest, versions, acks] = await Promise.all([
        derive(repo, scope),
        repo.findEntity(scope.legalEntityId),
        repo.findEmployees(scope.legalEntityId),
        repo.findLatestVersion(scope.legalEntityId),
        repo.listVersions(scope.legalEntityId),
        acknowledgedBy(repo, scope.legalEntityId),
      ]);
      const latestNumber = latest?.number ?? null;
      const businessName = entity?.business_name || 'Your company';
      const unchanged =
        !!latest &&
        derivation.publishable &&
        sameContent(
          buildDocument(catalog, derivation, draft, { businessName, version: latest.number, publishedAt: latest.published_at }),
          latest.document as HandbookDocument,
        );
      const builderEmployees = await Promise.all(
        employees.map(async (e): Promise<BuilderEmployee> => ({
          id: e.id,
          name: e.name,
          email: e.email,
          status: statusOf(acks.get(e.id) ?? [], !!e.email, latestNumber ?? 0),
          ackUrl: latest ? (await deps.links.ackLink(scope.legalEntityId, e.id, latest.id)).url : null,
        })),
      );
      return {
        businessName,
        draft,
        derivation,
        counts: Object.fromEntries(locations.filter((l) => l.hasEmployees).map((l) => [l.regionCode, l.employeeCount])),
        employees: builderEmployees,
        latest: latest
          ? {
              id: latest.id,
              number: latest.number,
              publishedAt: latest.published_at,
              regions: latest.regions,
              document: latest.document as HandbookDocument,
            }
          : null,
        versions: versions.map((v) => ({ id: v.id, number: v.number, publishedAt: v.published_at, regions: v.regions })),
        stats:
          latestNumber === null
            ? null
            : acknowledgementStats(
                builderEmployees.map((e) => ({ hasEmail: !!e.email, acknowledged: acks.get(e.id) ?? [] })),
                latestNumber,
              ),
        unchangedSince: latest && unchanged ? latest.number : null,
      };
    },

    /** GET /v2/handbook. */
    async summary(scope: AccessScope): Promise<HandbookSummary> {
      const repo = repositoryFor(deps.db);
      const [{ derivation }, latest] = await Promise.all([derive(repo, scope), repo.findLatestVersion(scope.legalEntityId)]);
      return {
        adoptable: derivation.adoptable,
        publishable: derivation.publishable,
        hasPublished: !!latest,
        stats: await statsOf(repo, scope.legalEntityId, latest?.number ?? null),
      };
    },

    /**
     * The employee counts of states that have employees (`count_<CODE>` fields), through the locations service
     * (its rules, its re-planning), all or nothing.
     */
    async saveCounts(scope: AccessScope, form: Record<string, string>): Promise<FormErrors> {
      const { derivation } = await derive(repositoryFor(deps.db), scope);
      const errors: FormErrors = {};
      const values = new Map<string, number>();
      for (const code of derivation.employeeRegions) {
        const field = `count_${code}`;
        const raw = (form[field] ?? '').trim();
        if (!/^\d{1,7}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_COUNT)
          errors[field] = 'Enter a whole number of employees, 1 or more.';
        else values.set(code, Number(raw));
      }
      if (Object.keys(errors).length) return errors;
      try {
        // All counts in one transaction and one re-planning: a refused state leaves every count as it was.
        await deps.locations.updateMany(scope, Object.fromEntries([...values].map(([code, count]) => [code, { employee_count: count }])));
      } catch (error) {
        if (error instanceof InvalidInputError) return { [`count_${String(error.path[0])}`]: error.message };
        if (error instanceof ConflictError || error instanceof NotFoundError) return { [`count_${[...values.keys()][0]}`]: error.message };
        throw error;
      }
      return {};
    },

    /** The answers to the builder's questions: every asked question must have a valid answer; nothing is saved otherwise. */
    async saveAnswers(scope: AccessScope, form: Record<string, string>): Promise<FormErrors> {
      const repo = repositoryFor(deps.db);
      const { draft, derivation } = await derive(repo, scope);
      const errors: FormErrors = {};
      const answers: Record<string, HandbookAnswer> = { ...draft.answers };
      for (const question of derivation.questions) {
        const field = `q_${question.id}`;
        const value = parseAnswer(question, form[field]);
        if (value === undefined) errors[field] = question.type === 'text' ? 'Enter an answer.' : answerProblem(question);
        else if (value === null) errors[field] = answerProblem(question);
        else answers[question.id] = value;
      }
      if (Object.keys(errors).length) return errors;
      await repo.saveDraft(scope.legalEntityId, { answers, choices: draft.choices });
      return {};
    },

    /** Adopt or skip each optional policy that applies (`policy_<id>` = adopt | skip). */
    async saveChoices(scope: AccessScope, form: Record<string, string>): Promise<FormErrors> {
      const repo = repositoryFor(deps.db);
      const { draft, derivation } = await derive(repo, scope);
      const errors: FormErrors = {};
      const choices: Record<string, PolicyChoice> = { ...draft.choices };
      for (const { policy } of derivation.applicable.filter((a) => a.policy.adoption === 'optional')) {
        const value = form[`policy_${policy.id}`];
        if (value === 'adopt' || value === 'skip') choices[policy.id] = value;
        else errors[`policy_${policy.id}`] = `Choose whether to include “${policy.title}”.`;
      }
      if (Object.keys(errors).length) return errors;
      await repo.saveDraft(scope.legalEntityId, { answers: draft.answers, choices });
      return {};
    },

    async addEmployee(scope: AccessScope, input: { name?: string; email?: string }): Promise<FormErrors> {
      const { value, errors } = checkEmployee(input);
      if (Object.keys(errors).length) return errors;
      return deps.db.transaction().execute(async (trx) => {
        // The entity's planning lock, which publish holds too: an employee added while a version is being
        // published gets the link of the version that commits, and two adds of one address cannot both pass.
        await deps.planning.lock(trx, [scope.legalEntityId]);
        const repo = repositoryFor(trx);
        const duplicate = await duplicateEmail(scope.legalEntityId, value.email, null, repo);
        if (Object.keys(duplicate).length) return duplicate;
        const id = newId('emp');
        await repo.insertEmployee(scope.legalEntityId, { id, ...value });
        // Published already: the new employee gets a link to the latest version at once.
        const latest = await repo.findLatestVersion(scope.legalEntityId);
        if (latest)
          await repo.insertAckLinks(scope.legalEntityId, [
            { ...(await deps.links.ackLink(scope.legalEntityId, id, latest.id)), employeeId: id, versionId: latest.id },
          ]);
        return {};
      });
    },

    async updateEmployee(scope: AccessScope, employeeId: string, input: { name?: string; email?: string }): Promise<FormErrors> {
      const { value, errors } = checkEmployee(input);
      Object.assign(errors, errors.email ? {} : await duplicateEmail(scope.legalEntityId, value.email, employeeId));
      if (Object.keys(errors).length) return errors;
      if ((await repositoryFor(deps.db).updateEmployee(scope.legalEntityId, employeeId, value)) === 0)
        throw new NotFoundError(`Employee '${employeeId}' not found`);
      return {};
    },

    /** Removed employees leave the list and the counts; their acknowledgements stay on record, their links stop working. */
    async removeEmployee(scope: AccessScope, employeeId: string): Promise<void> {
      if ((await repositoryFor(deps.db).removeEmployee(scope.legalEntityId, employeeId, deps.now())) === 0)
        throw new NotFoundError(`Employee '${employeeId}' not found`);
    },

    employee: (scope: AccessScope, employeeId: string) => requireActiveEmployee(repositoryFor(deps.db), scope.legalEntityId, employeeId),

    /**
     * Publishes the draft as a new, immutable version (number = last + 1) covering every state with employees:
     * one transaction under the planning lock, with each active employee's acknowledgement link, the handbook
     * tasks of the covered states done, the re-planning and handbook.published.
     */
    publish: (scope: AccessScope): Promise<PublishedVersion> =>
      deps.db.transaction().execute(async (trx) => {
        await deps.planning.lock(trx, [scope.legalEntityId]);
        const repo = repositoryFor(trx);
        const { draft, derivation } = await derive(repo, scope);
        if (!derivation.publishable) throw new ConflictError(`The handbook cannot be published yet: ${derivation.blockers.join(' ')}`);
        const [entity, latest, employees] = await Promise.all([
          repo.findEntity(scope.legalEntityId),
          repo.findLatestVersion(scope.legalEntityId),
          repo.findEmployees(scope.legalEntityId),
        ]);
        const version = {
          id: newId('hbv'),
          number: (latest?.number ?? 0) + 1,
          publishedAt: deps.now(),
          regions: derivation.employeeRegions,
        };
        const document = buildDocument(catalog, derivation, draft, {
          businessName: entity?.business_name || 'Your company',
          version: version.number,
          publishedAt: version.publishedAt,
        });
        // Re-publishing the same content would only make every employee acknowledge it again.
        if (latest && sameContent(document, latest.document as HandbookDocument)) throw new ConflictError(unchangedMessage(latest.number));
        await repo.insertVersion(scope.legalEntityId, { ...version, document });
        await repo.insertAckLinks(
          scope.legalEntityId,
          await Promise.all(
            employees.map(async (e) => ({
              tokenHash: (await deps.links.ackLink(scope.legalEntityId, e.id, version.id)).tokenHash,
              employeeId: e.id,
              versionId: version.id,
            })),
          ),
        );
        const tasks = await repo.findOpenHandbookTasks(scope.legalEntityId, HANDBOOK_REQUIREMENT_ID, version.regions);
        await repo.completeTasks(
          scope.legalEntityId,
          tasks.map((t) => t.id),
          version.publishedAt,
        );
        const event: NewEvent = {
          type: 'handbook.published',
          platformId: scope.platformId,
          legalEntityId: scope.legalEntityId,
          data: {
            object: {
              version: version.number,
              published_at: version.publishedAt.toISOString(),
              regions: version.regions,
              policies: document.sections.flatMap((s) => s.policies.map((p) => p.id)),
            },
          },
        };
        await deps.planning.replan(trx, [scope.legalEntityId], {
          events: [event],
          tasks: tasks.map((t) => ({ taskId: t.id, kind: 'updated', changed: ['status'] })),
        });
        return version;
      }),

    /** A version's PDF behind a signed link; `expired`/`forged` say why not. */
    async pdf(
      legalEntityId: string,
      versionId: string,
      expires: unknown,
      signature: unknown,
    ): Promise<{ state: 'ok'; document: HandbookDocument } | { state: 'expired' | 'forged' }> {
      const check = await deps.links.verifyPdf(legalEntityId, versionId, expires, signature);
      if (check !== 'ok') return { state: check };
      const version = await repositoryFor(deps.db).findVersion(legalEntityId, versionId);
      return version ? { state: 'ok', document: version.document as HandbookDocument } : { state: 'forged' };
    },

    pdfUrl: (scope: AccessScope, versionId: string) => deps.links.pdfUrl(scope.legalEntityId, versionId),

    /** What an employee's link shows; opening it changes nothing. */
    async ackView(token: string): Promise<AckView> {
      if (token.length > 100) return { state: 'unknown' };
      const repo = repositoryFor(deps.db);
      const link = await repo.findAckLink(hashSecret(token));
      if (!link) return { state: 'unknown' };
      const [employee, version, latest, ack] = await Promise.all([
        repo.findEmployee(link.legal_entity_id, link.employee_id),
        repo.findVersion(link.legal_entity_id, link.version_id),
        repo.findLatestVersion(link.legal_entity_id),
        repo.findAcknowledgement(link.legal_entity_id, link.employee_id, link.version_id),
      ]);
      if (!employee || !version) return { state: 'unknown' };
      if (employee.removed_at) return { state: 'removed' };
      return {
        state: 'ok',
        employeeName: employee.name,
        document: version.document as HandbookDocument,
        superseded: !!latest && latest.number > version.number,
        acknowledgedAt: ack?.acknowledged_at ?? null,
        typedName: ack?.typed_name ?? null,
      };
    },

    /**
     * The employee acknowledges the version their link names, typing their full name. Only the latest version can
     * be acknowledged; a second acknowledgement keeps the first. Records handbook.acknowledged.
     */
    async acknowledge(
      token: string,
      typedNameRaw: string | undefined,
    ): Promise<{ state: 'unknown' | 'removed' | 'superseded' | 'acknowledged' } | { state: 'invalid'; error: string }> {
      const typedName = (typedNameRaw ?? '').trim();
      if (!typedName) return { state: 'invalid', error: 'Type your full name to acknowledge.' };
      if (typedName.length > MAX_NAME) return { state: 'invalid', error: `Use at most ${MAX_NAME} characters.` };
      if (token.length > 100) return { state: 'unknown' };
      const link = await repositoryFor(deps.db).findAckLink(hashSecret(token));
      if (!link) return { state: 'unknown' };
      return deps.db.transaction().execute(async (trx) => {
        // Under the planning lock publish holds: an acknowledgement of a version being superseded waits for the
        // publication and is then refused, never recorded against the older version.
        await deps.planning.lock(trx, [link.legal_entity_id]);
        const repo = repositoryFor(trx);
        const [employee, version, latest, entity] = await Promise.all([
          repo.findEmployee(link.legal_entity_id, link.employee_id),
          repo.findVersion(link.legal_entity_id, link.version_id),
          repo.findLatestVersion(link.legal_entity_id),
          repo.findEntity(link.legal_entity_id),
        ]);
        if (!employee || !version || !entity) return { state: 'unknown' as const };
        if (employee.removed_at) return { state: 'removed' as const };
        if (latest && latest.number > version.number) return { state: 'superseded' as const };
        const at = deps.now();
        if (await repo.insertAcknowledgement(link.legal_entity_id, { employeeId: employee.id, versionId: version.id, typedName, at })) {
          await deps.events.record(trx, {
            type: 'handbook.acknowledged',
            platformId: entity.platform_id,
            legalEntityId: entity.id,
            data: { object: { employee_id: employee.id, version: version.number, acknowledged_at: at.toISOString() } },
          });
        }
        return { state: 'acknowledged' as const };
      });
    },
  };
}

/** Why publishing is refused when nothing changed (the review page says it too). */
export const unchangedMessage = (version: number) =>
  `Nothing has changed since version ${version}: publishing it again would only ask every employee to acknowledge the same handbook again.`;

export type HandbookService = ReturnType<typeof createHandbookService>;

/** A state's name for the pages (the code when unknown). */
export const stateName = (code: string) => regionByCode(code)?.name ?? code;
