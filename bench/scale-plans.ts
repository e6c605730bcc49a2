/**
 * The query plans of a request path: capture the SQL a process sends (a wrapper around pg's Client#query), then
 * EXPLAIN each statement and find sequential scans of tenant tables. Used by the scale bench (BENCH_SCENARIO=scale,
 * real plans at 1 M entities) and by test/query-plans.test.ts (with enable_seqscan off, on a small database: a
 * sequential scan left there means no index can serve the query).
 */
import pg from 'pg';

export interface CapturedStatement {
  text: string;
  values: unknown[];
  /** How many times it was sent while capturing. */
  count: number;
}

let capturing: Map<string, CapturedStatement> | null = null;
let installed = false;

/** Wraps pg.Client#query once in this process: while a capture runs, every statement any pool sends is recorded. */
export function installQueryCapture(): void {
  if (installed) return;
  installed = true;
  const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function capture(
    this: pg.Client,
    ...args: unknown[]
  ) {
    if (capturing) {
      const [config, values] = args;
      const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
      const params = Array.isArray(values) ? values : (config as { values?: unknown } | null)?.values;
      if (typeof text === 'string') {
        const seen = capturing.get(text);
        if (seen) seen.count += 1;
        else capturing.set(text, { text, values: Array.isArray(params) ? params : [], count: 1 });
      }
    }
    return original.apply(this, args);
  };
}

export function startCapture(): void {
  capturing = new Map();
}

export function stopCapture(): CapturedStatement[] {
  const out = [...(capturing?.values() ?? [])];
  capturing = null;
  return out;
}

/** Statements worth a plan: reads and writes of the application (the job queue's own schema is pg-boss's). */
export const explainable = (text: string) => /^\s*(select|insert|update|delete|with)\b/i.test(text) && !/\bpgboss\./i.test(text);

/** Tenant tables: legal_entities and every table with a legal_entity_id or platform_id column (the sharding layout's distributed tables). */
export async function tenantTables(client: pg.ClientBase): Promise<Set<string>> {
  const rows = await client.query<{ name: string }>(`
    select distinct c.table_name as name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = current_schema() and c.column_name in ('legal_entity_id', 'platform_id')`);
  return new Set(['legal_entities', ...rows.rows.map((r) => r.name)]);
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}

export interface Scan {
  relation: string;
  node: string;
  /** The index used (for a bitmap heap scan, those of its bitmap index scans). */
  index: string | null;
  /** A scan of the whole table: a Seq Scan, or an index scan with no index condition (the whole index, in its order). */
  full: boolean;
  heapFetches: number | null;
}

const bitmapIndexes = (node: PlanNode): string[] =>
  node['Node Type'] === 'Bitmap Index Scan' ? [node['Index Name'] ?? '?'] : (node.Plans ?? []).flatMap(bitmapIndexes);

/** Every scan of a table in a plan (EXPLAIN (FORMAT JSON)'s top node), depth first. */
export function scansOf(node: PlanNode): Scan[] {
  const type = node['Node Type'];
  const relation = node['Relation Name'];
  const own: Scan[] =
    relation && type !== 'ModifyTable'
      ? [
          {
            relation,
            node: type,
            index: type === 'Bitmap Heap Scan' ? bitmapIndexes(node).join(' + ') : (node['Index Name'] ?? null),
            full: type === 'Seq Scan' || ((type === 'Index Scan' || type === 'Index Only Scan') && !node['Index Cond']),
            heapFetches: node['Heap Fetches'] ?? null,
          },
        ]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap(scansOf)];
}

export interface ExplainedStatement {
  text: string;
  count: number;
  /** ANALYZE ran (inside a transaction rolled back); false when only the plan could be had (e.g. a write that conflicts now). */
  analyzed: boolean;
  executionMs: number | null;
  scans: Scan[];
  /** Tenant tables read by a Seq Scan. */
  seqScans: string[];
  /**
   * Tenant tables read whole through an index (no index condition). On a tiny test database the planner may pick
   * one for a one-row table when two indexes cost the same, so only the bench's real statistics make it a finding.
   */
  fullIndexScans: string[];
  error: string | null;
}

/**
 * EXPLAIN of each statement with the values it was sent with, in a transaction that is rolled back. `analyze` runs
 * it for real timings (writes are undone by the rollback); `seqscanOff` leaves a Seq Scan only where no index serves.
 */
export async function explainAll(
  client: pg.ClientBase,
  statements: CapturedStatement[],
  options: { analyze: boolean; seqscanOff: boolean },
): Promise<ExplainedStatement[]> {
  const tenants = await tenantTables(client);
  const out: ExplainedStatement[] = [];
  for (const statement of statements.filter((s) => explainable(s.text))) {
    let result: ExplainedStatement | null = null;
    let lastError: string | null = null;
    for (const analyze of options.analyze ? [true, false] : [false]) {
      await client.query('begin');
      try {
        if (options.seqscanOff) await client.query('set local enable_seqscan = off');
        const explained = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time'?: number }> }>(
          `explain (format json${analyze ? ', analyze, buffers' : ''}) ${statement.text}`,
          statement.values,
        );
        const top = explained.rows[0]!['QUERY PLAN'][0]!;
        const scans = scansOf(top.Plan);
        result = {
          text: statement.text,
          count: statement.count,
          analyzed: analyze,
          executionMs: top['Execution Time'] ?? null,
          scans,
          seqScans: scans.filter((s) => s.node === 'Seq Scan' && tenants.has(s.relation)).map((s) => s.relation),
          fullIndexScans: scans.filter((s) => s.full && s.node !== 'Seq Scan' && tenants.has(s.relation)).map((s) => s.relation),
          error: null,
        };
      } catch (error) {
        lastError = (error as Error).message;
      } finally {
        await client.query('rollback');
      }
      if (result) break;
    }
    out.push(
      result ?? {
        text: statement.text,
        count: statement.count,
        analyzed: false,
        executionMs: null,
        scans: [],
        seqScans: [],
        fullIndexScans: [],
        error: lastError,
      },
    );
  }
  return out;
}

/** One line per scan, e.g. `tasks: Index Scan using tasks_identity_key`. */
export const describeScans = (scans: Scan[]) =>
  scans.map(
    (s) =>
      `${s.relation}: ${s.node}${s.index ? ` using ${s.index}` : ''}${s.full ? ' (whole table)' : ''}${s.heapFetches !== null ? ` (heap fetches ${s.heapFetches})` : ''}`,
  );
