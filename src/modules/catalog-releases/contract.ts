// What other modules may use of catalog releases: the release summary inside `catalog.released` events, and the service type.
export { CatalogReleaseSummarySchema } from './catalog-releases.schemas.js';
export type { CatalogReleasesService } from './catalog-releases.service.js';
