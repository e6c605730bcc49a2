// Shared by scripts/refresh-openapi.ts (writes the snapshot) and test/sdk-openapi-current.test.ts (checks it).

/** The public base URL the snapshot is taken with (the one the tests' apps use). */
export const SNAPSHOT_BASE_URL = 'http://statehouse.test';

/** The snapshot's bytes: the document as JSON, two-space indented, with a final newline. */
export const formatDocument = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;
