import type { AccessScope } from '../../http/principals.js';
import { ConflictError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { HandbookDocument } from '../../pages/handbook-document.js';
import type { NewEvent } from '../events/contract.js';
import { HANDBOOK_REQUIREMENT_ID } from './contract.js';
import { buildDocument } from './handbook.fns.js';
import { businessNameOf, derive, repositoryOf, sameContent, type HandbookDeps } from './handbook-reads.js';
import { unchangedMessage, type PublishedVersion } from './handbook.types.js';

/** Published versions: publishing the draft, and each version's PDF behind a signed link. */
export interface HandbookPublishingService {
  /**
   * Publishes the draft as a new, immutable version (number = last + 1) covering every state with employees:
   * one planning change of the entity, with each active employee's acknowledgement link, the handbook tasks of
   * the covered states done, the re-planning and handbook.published. ConflictError when not publishable or unchanged.
   */
  publish(scope: AccessScope): Promise<PublishedVersion>;
  /** A version's PDF document behind a signed link; `expired`/`forged` say why not. */
  pdf(
    legalEntityId: string,
    versionId: string,
    expires: unknown,
    signature: unknown,
  ): Promise<{ state: 'ok'; document: HandbookDocument } | { state: 'expired' | 'forged' }>;
  /** A fresh signed link to a version's PDF. */
  pdfUrl(scope: AccessScope, versionId: string): Promise<string>;
}

export function createHandbookPublishingService(
  deps: Pick<HandbookDeps, 'db' | 'catalog' | 'locations' | 'planning' | 'tasks' | 'links' | 'now' | 'repositoryFor'>,
): HandbookPublishingService {
  const repositoryFor = repositoryOf(deps);
  return {
    publish: async (scope) =>
      (
        await deps.planning.change<PublishedVersion>([scope.legalEntityId], async (trx) => {
          const repo = repositoryFor(trx);
          const { draft, derivation } = await derive(deps, repo, scope);
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
          const document = buildDocument(deps.catalog, derivation, draft, {
            businessName: businessNameOf(entity),
            version: version.number,
            publishedAt: version.publishedAt,
          });
          // Re-publishing the same content would only make every employee acknowledge it again.
          if (latest && sameContent(document, latest.document as HandbookDocument))
            throw new ConflictError(unchangedMessage(latest.number));
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
          // The tasks table is the tasks module's: its port completes them, in this transaction.
          const completed = await deps.tasks.completeOpen(
            trx,
            scope.legalEntityId,
            HANDBOOK_REQUIREMENT_ID,
            version.regions,
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
          return {
            value: version,
            cause: { events: [event], tasks: completed.map((taskId) => ({ taskId, kind: 'updated', changed: ['status'] })) },
          };
        })
      ).value,

    async pdf(legalEntityId, versionId, expires, signature) {
      const check = await deps.links.verifyPdf(legalEntityId, versionId, expires, signature);
      if (check !== 'ok') return { state: check };
      const version = await repositoryFor(deps.db).findVersion(legalEntityId, versionId);
      return version ? { state: 'ok', document: version.document as HandbookDocument } : { state: 'forged' };
    },

    pdfUrl: (scope, versionId) => deps.links.pdfUrl(scope.legalEntityId, versionId),
  };
}
