import type { AccessScope } from '../../http/principals.js';
import type { HandbookDocument } from '../../pages/handbook-document.js';
import { acknowledgementStats, buildDocument } from './handbook.fns.js';
import {
  acknowledgedBy,
  businessNameOf,
  derive,
  repositoryOf,
  sameContent,
  statsOf,
  statusOf,
  type HandbookDeps,
} from './handbook-reads.js';
import type { BuilderEmployee, BuilderState, HandbookSummary } from './handbook.types.js';

/** Where an entity's handbook stands: everything the builder shows, and the platform's summary (GET /v2/handbook). */
export interface HandbookOverviewService {
  state(scope: AccessScope): Promise<BuilderState>;
  summary(scope: AccessScope): Promise<HandbookSummary>;
}

export function createHandbookOverviewService(
  deps: Pick<HandbookDeps, 'db' | 'catalog' | 'locations' | 'links' | 'repositoryFor'>,
): HandbookOverviewService {
  const repositoryFor = repositoryOf(deps);
  return {
    async state(scope) {
      const repo = repositoryFor(deps.db);
      const [{ draft, derivation, locations }, entity, employees, latest, versions, acks] = await Promise.all([
        derive(deps, repo, scope),
        repo.findEntity(scope.legalEntityId),
        repo.findEmployees(scope.legalEntityId),
        repo.findLatestVersion(scope.legalEntityId),
        repo.listVersions(scope.legalEntityId),
        acknowledgedBy(repo, scope.legalEntityId),
      ]);
      const latestNumber = latest?.number ?? null;
      const businessName = businessNameOf(entity);
      const unchanged =
        !!latest &&
        derivation.publishable &&
        sameContent(
          buildDocument(deps.catalog, derivation, draft, { businessName, version: latest.number, publishedAt: latest.published_at }),
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

    async summary(scope) {
      const repo = repositoryFor(deps.db);
      const [{ derivation }, latest] = await Promise.all([derive(deps, repo, scope), repo.findLatestVersion(scope.legalEntityId)]);
      return {
        adoptable: derivation.adoptable,
        publishable: derivation.publishable,
        hasPublished: !!latest,
        stats: await statsOf(repo, scope.legalEntityId, latest?.number ?? null),
      };
    },
  };
}
