// What other modules may use of locations: the service (tasks' answers, the handbook's counts and payroll's sync
// change locations through it), the location event, and the wire schemas other operations embed.
export type { LocationsService, EntityLocation, ConfiguredLocation } from './locations.service.js';
export type { LocationConfigChange } from './locations.fns.js';
export { locationEvent } from './locations.events.js';
export { LocationRefSchema, RegionPlatformIdParamsSchema } from './locations.schemas.js';
