// The shapes of catalog releases (docs/catalog-releases.md): a release file, its changes, and the digests file.
import type { Agency, RequirementDefinition } from './catalog.schema.js';

/** `2026.11.28-1`: the day it was cut and its number that day. */
export const RELEASE_ID = /^(\d{4})\.(\d{2})\.(\d{2})-([1-9]\d{0,2})$/;

/** The requirement fields a release tells apart ("changed: schedule, sources"); `agency` covers its name and website. */
export const DIGEST_FIELDS = [
  'family', 'title', 'summary', 'description', 'category', 'tags', 'priority', 'agency', 'resources', 'fee', 'eta',
  'applies_when', 'schedule', 'unlocks', 'resolutions', 'sources', 'verification', 'confidence', 'notes',
] as const;
export type DigestField = (typeof DIGEST_FIELDS)[number];

/** Region of the employer's own requirements (planned in every state: the handbook). */
export const EVERY_REGION = 'ALL';

export interface CatalogRequirement {
  /** Two-letter state code, US for federal requirements, ALL for the employer's own (every state). */
  region: string;
  definition: RequirementDefinition;
  agency: Agency;
}

/** One change a release made to one requirement. */
export interface RequirementChange {
  change: 'added' | 'changed' | 'retired';
  id: string;
  region: string;
  title: string;
  /** For `changed`: which fields (DIGEST_FIELDS). */
  fields?: string[];
  /** The requirement's source URLs (for `retired`: as last released). */
  sources: string[];
  /**
   * Its category and priority (for `retired`: as last released): with the title, what a `task.deleted` event says of
   * a task of a retired requirement (modules/tasks, `retiredRequirements`). Absent only from entries cut before they
   * were recorded.
   */
  category?: RequirementDefinition['category'];
  priority?: RequirementDefinition['priority'];
}

export interface CatalogRelease {
  id: string;
  /** YYYY-MM-DD. */
  date: string;
  title: string;
  /** The human changelog (Markdown), may be empty. */
  notes: string;
  /** The first release: the catalog as it was when releases began (every requirement `added`). */
  baseline?: boolean;
  summary: { added: number; changed: number; retired: number; requirements: number; questions_changed: boolean };
  changes: RequirementChange[];
}

/** catalog/releases/digests.json: the content of the latest release, requirement by requirement. */
export interface ReleaseDigests {
  release: string;
  fields: readonly string[];
  /** The questions' content (questions.yaml) as one digest. */
  questions: string;
  /** The whole content (every requirement with its region and agency, and the questions): one digest, checked at start. */
  content: string;
  /** Requirement id → "<region> <digest of each field, in `fields` order>". */
  requirements: Record<string, string>;
}
