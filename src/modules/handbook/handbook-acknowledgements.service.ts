import { hashSecret } from '../../lib/secrets.js';
import type { HandbookDocument } from '../../pages/handbook-document.js';
import { repositoryOf, type HandbookDeps } from './handbook-reads.js';
import { MAX_NAME, type AckView } from './handbook.types.js';

export type AcknowledgeResult = { state: 'unknown' | 'removed' | 'superseded' | 'acknowledged' } | { state: 'invalid'; error: string };

/** The employee's side: the page of their personal link, and their acknowledgement of the version it names. */
export interface HandbookAcknowledgementsService {
  /** What an employee's link shows; opening it changes nothing. */
  view(token: string): Promise<AckView>;
  /**
   * The employee acknowledges the version their link names with their typed full name (trimmed). Only the latest
   * version can be acknowledged; a second acknowledgement keeps the first. Records handbook.acknowledged.
   */
  acknowledge(token: string, typedName: string): Promise<AcknowledgeResult>;
}

/** Longer tokens are never issued: refused before any lookup. */
const MAX_TOKEN = 100;

export function createHandbookAcknowledgementsService(
  deps: Pick<HandbookDeps, 'db' | 'planning' | 'events' | 'now' | 'repositoryFor'>,
): HandbookAcknowledgementsService {
  const repositoryFor = repositoryOf(deps);
  return {
    async view(token) {
      if (token.length > MAX_TOKEN) return { state: 'unknown' };
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

    async acknowledge(token, typedName) {
      if (!typedName.trim()) return { state: 'invalid', error: 'Type your full name to acknowledge.' };
      if (typedName.length > MAX_NAME) return { state: 'invalid', error: `Use at most ${MAX_NAME} characters.` };
      if (token.length > MAX_TOKEN) return { state: 'unknown' };
      const link = await repositoryFor(deps.db).findAckLink(hashSecret(token));
      if (!link) return { state: 'unknown' };
      // Under the planning lock publish holds: an acknowledgement of a version being superseded waits for the
      // publication and is then refused, never recorded against the older version. Nothing to re-plan.
      const { value } = await deps.planning.change<AcknowledgeResult>([link.legal_entity_id], async (trx) => {
        const repo = repositoryFor(trx);
        const [employee, version, latest, entity] = await Promise.all([
          repo.findEmployee(link.legal_entity_id, link.employee_id),
          repo.findVersion(link.legal_entity_id, link.version_id),
          repo.findLatestVersion(link.legal_entity_id),
          repo.findEntity(link.legal_entity_id),
        ]);
        if (!employee || !version || !entity) return { value: { state: 'unknown' }, replan: false };
        if (employee.removed_at) return { value: { state: 'removed' }, replan: false };
        if (latest && latest.number > version.number) return { value: { state: 'superseded' }, replan: false };
        const at = deps.now();
        if (await repo.insertAcknowledgement(link.legal_entity_id, { employeeId: employee.id, versionId: version.id, typedName, at })) {
          await deps.events.record(trx, {
            type: 'handbook.acknowledged',
            platformId: entity.platform_id,
            legalEntityId: entity.id,
            data: { object: { employee_id: employee.id, version: version.number, acknowledged_at: at.toISOString() } },
          });
        }
        return { value: { state: 'acknowledged' }, replan: false };
      });
      return value;
    },
  };
}
