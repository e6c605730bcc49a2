// `statehouse import FILE --platform <id>`: an import of a platform's book run in this process (docs/imports.md).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import { RequestValidationError } from '../lib/errors.js';
import { createHostedSessionsModule } from '../modules/hosted-sessions/index.js';
import { createImportsModule, type ImportsModule } from '../modules/imports/index.js';
import { createLegalEntitiesModule } from '../modules/legal-entities/index.js';
import { createLocationsModule } from '../modules/locations/index.js';
import { createPlatformsModule } from '../modules/platforms/index.js';
import { log, planningFor } from './command-services.js';
import type { CommandOptions } from './options.js';
import { print, UsageError } from './output.js';

/** The modules an import needs, composed as app.ts composes them, without a job queue: this process runs it. */
export function importsFor(db: DatabaseHandle['db'], config: Config): ImportsModule & { platformExists(id: string): Promise<boolean> } {
  const { platforms, callbackOrigins } = createPlatformsModule({ db, requireRegisteredCallbacks: config.environment === 'production' });
  const { planning } = planningFor(db, config);
  const { sessions } = createHostedSessionsModule({
    db,
    publicBaseUrl: config.publicBaseUrl,
    callbackOrigins,
    linkTtlSeconds: config.hostedSessionTtlSeconds,
  });
  const { signup } = createLegalEntitiesModule({
    db,
    sessions,
    signupTtlSeconds: config.signupSessionTtlSeconds,
    planning,
    callbackOrigins,
  });
  const { locations } = createLocationsModule({ db, planning });
  const module = createImportsModule({ db, planning, signup, locations, log });
  return { ...module, platformExists: async (id) => (await platforms.list()).some((p) => p.id === id) };
}

function formatOfFile(file: string, given: string | undefined): 'csv' | 'jsonl' {
  const format = given ?? (path.extname(file).toLowerCase() === '.csv' ? 'csv' : 'jsonl');
  if (format !== 'csv' && format !== 'jsonl') throw new UsageError(`--format is csv or jsonl (got '${format}')`);
  return format;
}

/** A progress line on stderr when it is a terminal (rewritten in place); nothing otherwise (logs stay clean). */
export function progressLine(total: number, stream: NodeJS.WriteStream = process.stderr) {
  const width = 30;
  const draw = (done: number) => {
    if (!stream.isTTY) return;
    const filled = total ? Math.round((done / total) * width) : width;
    stream.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} rows`);
  };
  return {
    update: draw,
    end: (done: number) => {
      draw(done);
      if (stream.isTTY) stream.write('\n');
    },
  };
}

export async function importCommand(module: ReturnType<typeof importsFor>, args: string[], values: CommandOptions, json: boolean) {
  const [file] = args;
  const platformId = values.platform;
  if (!file || !platformId) throw new UsageError('Usage: statehouse import FILE --platform <platform id> [--format csv|jsonl]');
  if (!(await module.platformExists(platformId))) throw new Error(`Platform '${platformId}' not found`);
  const format = formatOfFile(file, values.format);
  const text = await readFile(file, 'utf8');
  let created;
  try {
    created = await module.imports.create(platformId, format, text);
  } catch (error) {
    if (error instanceof RequestValidationError) throw new Error(error.issues.map((i) => i.msg).join('; '));
    throw error;
  }
  const progress = progressLine(created.counts.total);
  let done = created.counts.failed;
  progress.update(done);
  await module.batches.run(created.id, platformId, { progress: (rows) => progress.update((done += rows)) });
  progress.end(done);
  const result = await module.imports.get(platformId, created.id);
  const failedRows = (await module.imports.rows(platformId, created.id, { limit: 1000, status: 'failed' })).items;
  const { counts } = result;
  const lines = [
    `import ${result.id}: ${result.status} — ${counts.total} rows, ${counts.created} created, ${counts.unchanged} unchanged, ${counts.failed} failed`,
    ...failedRows
      .slice(0, 20)
      .map((r) => `  row ${r.row}: ${r.errors.map((e) => `${e.loc.slice(2).join('.') || 'row'}: ${e.msg}`).join('; ')}`),
    ...(failedRows.length > 20 ? [`  … ${counts.failed - 20} more: GET /v2/legal_entities/imports/${result.id}?status=failed`] : []),
  ];
  print(json, { ...result, failed_rows: failedRows }, lines.join('\n'));
  if (counts.failed > 0) process.exitCode = 1;
}
