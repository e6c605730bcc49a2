// The wire shapes of GET /v2/catalog/releases and GET /v2/catalog/releases/{id}, and of `catalog.released`.
import { Type } from 'typebox';
import { TASK_CATEGORIES } from '../../catalog/catalog-vocabulary.js';
import { BoundedString, Nullable, StringEnum } from '../../http/schemas.js';

export const ReleaseCountsSchema = Type.Object(
  {
    added: Type.Integer({ description: 'Requirements added.' }),
    changed: Type.Integer({ description: 'Requirements changed.' }),
    retired: Type.Integer({ description: 'Requirements retired (no longer planned).' }),
    requirements: Type.Integer({ description: 'Requirements in the catalog at this release.' }),
    questions_changed: Type.Boolean({ description: 'Whether the questions that collect facts changed.' }),
  },
  { title: 'CatalogReleaseCounts' },
);

/** A release without its change list: the list items, and the payload of `catalog.released`. */
export const CatalogReleaseSummarySchema = Type.Object(
  {
    id: Type.String({
      description: 'The release id, `YYYY.MM.DD-N` (the day it was cut, its number that day).',
      examples: ['2026.11.28-1'],
    }),
    date: Type.String({ format: 'date' }),
    title: Type.String(),
    notes: Type.String({ description: 'The human changelog (Markdown); may be empty.' }),
    baseline: Type.Boolean({ description: 'The first release: the catalog as it was when releases began (every requirement added).' }),
    summary: ReleaseCountsSchema,
  },
  { title: 'CatalogReleaseSummary' },
);

export const RequirementChangeSchema = Type.Object(
  {
    change: StringEnum(['added', 'changed', 'retired'] as const),
    id: Type.String({ description: 'The requirement id (the `definition_id` of its tasks).' }),
    region: Type.String({ description: 'Two-letter state code; US for federal requirements, ALL for the employer’s own (every state).' }),
    title: Type.String(),
    fields: Type.Optional(
      Type.Array(Type.String(), { description: 'For `changed`: the fields that changed (e.g. `schedule`, `applies_when`, `sources`).' }),
    ),
    sources: Type.Array(Type.String(), { description: 'The official pages the requirement relies on (for `retired`: as last released).' }),
    category: Type.Optional(StringEnum(TASK_CATEGORIES, { description: "The requirement's category (for `retired`: as last released)." })),
    priority: Type.Optional(
      StringEnum(['high', 'medium', 'low'] as const, { description: "The requirement's priority (for `retired`: as last released)." }),
    ),
  },
  { title: 'CatalogRequirementChange' },
);

export const CatalogReleaseSchema = Type.Object(
  {
    ...CatalogReleaseSummarySchema.properties,
    changes: Type.Array(RequirementChangeSchema),
  },
  { title: 'CatalogRelease' },
);

export const CatalogReleaseListSchema = Type.Object(
  {
    current: Nullable(
      Type.String({
        description: 'The release this server plans with; null when its catalog holds unreleased changes (a development build).',
      }),
    ),
    releases: Type.Array(CatalogReleaseSummarySchema, { description: 'Every release, newest first.' }),
  },
  { title: 'CatalogReleaseList' },
);

export const ReleaseParamsSchema = Type.Object({ id: BoundedString(64) });
