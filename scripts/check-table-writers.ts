// npm run seams (after check-seams.ts): one writing module per table. Scans src/modules/**/*.ts (tests excluded) for
// Kysely writes (insertInto, updateTable, deleteFrom, mergeInto, replaceInto) and raw INSERT/UPDATE/DELETE/MERGE
// in strings and sql`` templates; a table written by two modules, beyond the commented SECOND_WRITERS of
// scripts/table-writers-rule.ts, or a write whose table is not literal, is a violation. Prints each violation and
// the count; exits 1 on any. `--list`: each table and its writing module.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writersByTable, writerViolations, writesIn, type ModuleWrite } from './table-writers-rule.js';

const SRC = path.resolve(import.meta.dirname, '..', 'src');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });

const writes: ModuleWrite[] = filesUnder(path.join(SRC, 'modules')).flatMap((file) => {
  const relative = path.relative(SRC, file).split(path.sep).join('/');
  const module = relative.split('/')[1]!;
  return writesIn(file, readFileSync(file, 'utf8')).map((w) => ({ ...w, module, file: `src/${relative}` }));
});
if (process.argv.includes('--list')) for (const [table, modules] of writersByTable(writes)) console.log(`${table}: ${modules.join(', ')}`);
const violations = writerViolations(writes);
for (const violation of violations) console.log(violation);
console.log(`${violations.length} table${violations.length === 1 ? '' : 's'} with more than one writer (or an unreadable write)`);
process.exit(violations.length > 0 ? 1 : 0);
