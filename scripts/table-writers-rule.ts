// One writing module per table (docs/architecture.md, "Planning a change, and who writes each table"), as pure
// functions over a file's text, so that they can be tested on small fixtures. scripts/check-table-writers.ts runs
// them over src/modules (npm run seams).
import ts from 'typescript';

/** A table write found in a file: Kysely's builders, or a raw INSERT/UPDATE/DELETE in a string or sql`` template. */
export interface TableWrite {
  /** null: a Kysely write whose table is not a string literal (the check cannot tell whose it is). */
  table: string | null;
  line: number;
  /** `insertInto`, `updateTable`, `deleteFrom`, `mergeInto`, `replaceInto`, or `sql` for raw SQL. */
  how: string;
}

/**
 * Second writers that are truly justified, `table → { module: why }`. Empty: every table has one writing module;
 * another module writes through a port the owner implements (tasks' TaskCompletionStore, legal-entities'
 * PayrollConnectionStore, planning's PlannedTaskStore and PlannedEntityStore). An entry needs its reason.
 */
export const SECOND_WRITERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {};

const KYSELY_WRITES = new Set(['insertInto', 'updateTable', 'deleteFrom', 'mergeInto', 'replaceInto']);
const NAME = '("?)([a-z_][a-z0-9_]*)\\1';
// A raw write's table: `insert into t`, `update [only] t [[as] alias] set`, `delete from [only] t`, `merge into t`.
const RAW_WRITES = [
  new RegExp(`\\binsert\\s+into\\s+(?:only\\s+)?(?:[a-z_][a-z0-9_]*\\.)?${NAME}`, 'gi'),
  new RegExp(`\\bupdate\\s+(?:only\\s+)?(?:[a-z_][a-z0-9_]*\\.)?${NAME}(?:\\s+(?:as\\s+)?[a-z_][a-z0-9_]*)?\\s+set\\b`, 'gi'),
  new RegExp(`\\bdelete\\s+from\\s+(?:only\\s+)?(?:[a-z_][a-z0-9_]*\\.)?${NAME}`, 'gi'),
  new RegExp(`\\bmerge\\s+into\\s+(?:[a-z_][a-z0-9_]*\\.)?${NAME}`, 'gi'),
];
/** A raw write whose table is a substitution (`insert into ${sql.table(t)}`): whose it is cannot be read. */
const RAW_DYNAMIC = /\b(?:insert\s+into|update|delete\s+from|merge\s+into)\s+(?:only\s+)?\$/gi;
/** Words a raw pattern can meet that are not tables (`on conflict … do update set`). */
const NOT_TABLES = new Set(['set', 'only']);

/** `tasks`, `tasks as t`, `public.tasks` → `tasks`. */
const tableOf = (name: string) => name.trim().split(/\s+/)[0]!.split('.').pop()!;

/** The text of a string or template literal, a substitution standing as `$`. */
function literalText(node: ts.Node): string | null {
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => `$ ${s.literal.text}`)].join('');
  return null;
}

/** Every table write in a TypeScript file's text (comments never count). */
export function writesIn(fileName: string, text: string): TableWrite[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: TableWrite[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && KYSELY_WRITES.has(node.expression.name.text)) {
      const first = node.arguments[0];
      const table = first && ts.isStringLiteralLike(first) ? tableOf(first.text) : null;
      found.push({ table, line: lineOf(node), how: node.expression.name.text });
    }
    const literal = literalText(node);
    if (literal !== null) {
      for (const pattern of RAW_WRITES) {
        for (const match of literal.matchAll(pattern)) {
          const table = match[2]!.toLowerCase();
          if (!NOT_TABLES.has(table)) found.push({ table, line: lineOf(node), how: 'sql' });
        }
      }
      for (const _ of literal.matchAll(RAW_DYNAMIC)) found.push({ table: null, line: lineOf(node), how: 'sql' });
      return; // a template's spans are visited as its own text above; expressions inside are not SQL text
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A write as the check sees it: which module's file, and where. */
export interface ModuleWrite extends TableWrite {
  module: string;
  file: string;
}

/**
 * What breaks the rule: a table written by more than one module (beyond `allowed`), and a write whose table cannot be
 * read. One line per problem, naming each writer's files.
 */
export function writerViolations(writes: readonly ModuleWrite[], allowed = SECOND_WRITERS): string[] {
  const out: string[] = [];
  for (const w of writes)
    if (w.table === null) out.push(`${w.file}:${w.line}: a ${w.how === 'sql' ? 'raw write' : `${w.how}()`} whose table is not literal`);
  const byTable = new Map<string, Map<string, ModuleWrite[]>>();
  for (const w of writes) {
    if (w.table === null) continue;
    const modules = byTable.get(w.table) ?? new Map<string, ModuleWrite[]>();
    modules.set(w.module, [...(modules.get(w.module) ?? []), w]);
    byTable.set(w.table, modules);
  }
  for (const [table, modules] of [...byTable].sort(([a], [b]) => a.localeCompare(b))) {
    const writers = [...modules.keys()].filter((m) => !allowed[table]?.[m]);
    if (writers.length <= 1) continue;
    const where = writers.map((m) => `${m} (${[...new Set(modules.get(m)!.map((w) => `${w.file}:${w.line}`))].join(', ')})`);
    out.push(`table ${table} has ${writers.length} writing modules: ${where.join('; ')}`);
  }
  return out;
}

/** Each table and the modules that write it (the allowed second writers included), for the report. */
export function writersByTable(writes: readonly ModuleWrite[]): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const w of writes) if (w.table !== null) out.set(w.table, (out.get(w.table) ?? new Set()).add(w.module));
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)).map(([t, m]) => [t, [...m].sort()]));
}
