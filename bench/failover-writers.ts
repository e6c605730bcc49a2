/**
 * Writes under load against several Statehouse processes, and the checks after one of them was killed
 * (BENCH_SCENARIO=failover and test/kill-under-load.test.ts share them). Plain HTTP through the public interface.
 *
 * Each writer signs a legal entity up (POST /v2/signup), takes a token, then changes its regions'
 * employee counts (PUT /v2/regions/{code}, each write a count higher than the last) and the status of one of its
 * requirement tasks (PATCH /v2/tasks/{id}, todo and done in turn) a few times, then signs the next
 * entity up (so signups too are in flight whenever a process dies), spreading its requests over
 * every process in turn. A write is acknowledged when its response was a 2xx; a request to a dead process fails
 * and is not acknowledged (a load balancer would retry it elsewhere).
 */

export interface WriteTarget {
  name: string;
  url: string;
}

export interface AcknowledgedWrite {
  kind: 'signup' | 'region' | 'status';
  /** The process that answered. */
  server: string;
  entityId: string;
  region?: string;
  employeeCount?: number;
  taskId?: string;
  status?: 'todo' | 'done';
  /** Date.now() when the answer came. */
  at: number;
}

export const FAILOVER_REGIONS = ['CA', 'NY', 'TX'] as const;
const REQUEST_TIMEOUT_MS = 60_000;
/** Writes per entity (regions and a task's status, in turn) before the writer signs the next one up. */
const WRITES_PER_ENTITY = 12;

/** One status write, acknowledged or not, in the order a writer sent them. */
export interface StatusAttempt {
  entityId: string;
  taskId: string;
  status: 'todo' | 'done';
  acknowledged: boolean;
}

const signupBody = (name: string) => ({
  user_email: 'owner@failover.example',
  business_name: name,
  entity_type: 'c_corp',
  tax_class: 'corp',
  incorporation_region: 'DE',
  incorporated_date: '2022-01-15',
});

async function call(url: string, method: string, authorization: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method,
    headers: { authorization, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json };
}

const ok = (status: number) => status >= 200 && status < 300;

export interface Writers {
  acknowledged: AcknowledgedWrite[];
  /** Every status write sent, acknowledged or not (an unanswered one may have been applied). */
  statusAttempts: StatusAttempt[];
  /** Requests sent, and those that failed (no answer, or not a 2xx). */
  counts: { sent: number; failed: number };
  /** Acknowledged writes answered by this process. */
  acknowledgedBy(server: string): number;
  stop(): Promise<void>;
}

/** Starts `count` writers, each spreading its requests over `targets` in turn, until stop(). */
export function startWriters(targets: readonly WriteTarget[], apiKey: string, count: number, label = 'Failover'): Writers {
  const acknowledged: AcknowledgedWrite[] = [];
  const statusAttempts: StatusAttempt[] = [];
  const counts = { sent: 0, failed: 0 };
  let stopped = false;
  const attempt = async <T>(work: () => Promise<T | null>): Promise<T | null> => {
    counts.sent++;
    try {
      const result = await work();
      if (result === null) counts.failed++;
      return result;
    } catch {
      counts.failed++;
      return null;
    }
  };

  async function writer(index: number) {
    let turn = index;
    const next = () => targets[turn++ % targets.length]!;
    let entityId: string | null = null;
    let token: string | null = null;
    let taskId: string | null = null;
    let writes = 0;
    let employeeCount = 0;
    while (!stopped) {
      const target = next();
      if (!entityId) {
        entityId = await attempt(async () => {
          const reply = await call(`${target.url}/v2/signup`, 'POST', apiKey, signupBody(`${label} Writer ${index} Inc`));
          if (!ok(reply.status)) return null;
          const id = (reply.json as { legal_entity_id: string }).legal_entity_id;
          acknowledged.push({ kind: 'signup', server: target.name, entityId: id, at: Date.now() });
          return id;
        });
      } else if (!token) {
        const id = entityId;
        token = await attempt(async () => {
          const reply = await call(`${target.url}/accounts/auth`, 'POST', apiKey, { legal_entity_id: id });
          return ok(reply.status) ? (reply.json as { access_token: string }).access_token : null;
        });
      } else if (!taskId) {
        const auth = `Bearer ${token}`;
        taskId = await attempt(async () => {
          const reply = await call(`${target.url}/v2/tasks?type=requirement&page_size=1`, 'GET', auth);
          const first = ok(reply.status) ? (reply.json as { id: string }[])[0] : undefined;
          return first ? first.id : null;
        });
      } else if (writes >= WRITES_PER_ENTITY) {
        [entityId, token, taskId, writes, employeeCount] = [null, null, null, 0, 0];
      } else if (writes++ % 3 === 2) {
        const [id, task, auth] = [entityId, taskId, `Bearer ${token}`];
        const status = writes % 2 === 1 ? 'done' : 'todo'; // done first (a new task is todo)
        const sent: StatusAttempt = { entityId: id, taskId: task, status, acknowledged: false };
        statusAttempts.push(sent);
        await attempt(async () => {
          const reply = await call(`${target.url}/v2/tasks/${task}`, 'PATCH', auth, { status });
          if (!ok(reply.status)) return null;
          sent.acknowledged = true;
          acknowledged.push({ kind: 'status', server: target.name, entityId: id, taskId: task, status, at: Date.now() });
          return true;
        });
      } else {
        const [id, auth] = [entityId, `Bearer ${token}`];
        const region = FAILOVER_REGIONS[employeeCount % FAILOVER_REGIONS.length]!;
        const value = ++employeeCount;
        await attempt(async () => {
          const reply = await call(`${target.url}/v2/regions/${region}`, 'PUT', auth, { employee_count: value });
          if (!ok(reply.status)) return null;
          acknowledged.push({ kind: 'region', server: target.name, entityId: id, region, employeeCount: value, at: Date.now() });
          return true;
        });
      }
    }
  }

  const running = Array.from({ length: count }, (_, i) => writer(i));
  return {
    acknowledged,
    statusAttempts,
    counts,
    acknowledgedBy: (server) => acknowledged.filter((w) => w.server === server).length,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

export interface WriteCheck {
  /** Acknowledged writes not found on the survivor (must be none). */
  lost: string[];
  /** Entities whose stored tasks are not what their stored facts plan (a half-applied write; must be none). */
  halfWritten: string[];
  entitiesChecked: number;
}

/** A task as the check compares it: what re-planning decides (no timestamps). */
const planned = (tasks: unknown) =>
  JSON.stringify(
    (tasks as { id: string; status: string; source: unknown }[]).map((t) => JSON.stringify([t.id, t.status, t.source])).sort(),
  );

/**
 * On the survivor: every acknowledged signup's entity exists and every acknowledged region write holds (its
 * employee count or a later one); and every entity in `entityIds` (all the database holds, acknowledged or not)
 * is whole: writing its stored regions again re-plans nothing (its tasks already are what its facts plan).
 */
export async function checkWrites(
  survivorUrl: string,
  apiKey: string,
  acknowledged: readonly AcknowledgedWrite[],
  statusAttempts: readonly StatusAttempt[],
  entityIds: readonly string[],
): Promise<WriteCheck> {
  const lost: string[] = [];
  const halfWritten: string[] = [];
  const tokens = new Map<string, string>();
  const tokenFor = async (entityId: string) => {
    let token = tokens.get(entityId);
    if (!token) {
      const reply = await call(`${survivorUrl}/accounts/auth`, 'POST', apiKey, { legal_entity_id: entityId });
      if (!ok(reply.status)) return null;
      token = `Bearer ${(reply.json as { access_token: string }).access_token}`;
      tokens.set(entityId, token);
    }
    return token;
  };
  const regionsOf = async (token: string) => {
    const reply = await call(`${survivorUrl}/v2/regions`, 'GET', token);
    if (!ok(reply.status)) throw new Error(`GET /v2/regions answered ${reply.status}`);
    return reply.json as { region: { code: string }; config: { employee_count: number | null } }[];
  };

  // The highest acknowledged count of each entity's region: the stored one must be it or a later write's.
  const highest = new Map<string, number>();
  for (const w of acknowledged) {
    if (w.kind === 'signup') {
      if (!(await tokenFor(w.entityId))) lost.push(`signup of ${w.entityId} (acknowledged by ${w.server})`);
      continue;
    }
    if (w.kind === 'status') continue; // below
    const key = `${w.entityId} ${w.region}`;
    highest.set(key, Math.max(highest.get(key) ?? 0, w.employeeCount!));
  }
  const byEntity = new Map<string, [string, number][]>();
  for (const [key, count] of highest) {
    const [entityId, region] = key.split(' ') as [string, string];
    byEntity.set(entityId, [...(byEntity.get(entityId) ?? []), [region, count]]);
  }
  for (const [entityId, writes] of byEntity) {
    const token = await tokenFor(entityId);
    if (!token) {
      lost.push(`entity ${entityId} of ${writes.length} acknowledged region writes`);
      continue;
    }
    const stored = new Map((await regionsOf(token)).map((r) => [r.region.code, r.config.employee_count]));
    for (const [region, count] of writes) {
      const now = stored.get(region);
      if (now === undefined || now === null || now < count)
        lost.push(`${entityId} ${region}: acknowledged ${count}, stored ${now ?? 'nothing'}`);
    }
  }

  // A task's status is its last acknowledged write's, or that of a write sent after it whose answer was lost.
  const byTask = new Map<string, StatusAttempt[]>();
  for (const a of statusAttempts) byTask.set(a.taskId, [...(byTask.get(a.taskId) ?? []), a]);
  for (const [taskId, attempts] of byTask) {
    const last = attempts.map((a) => a.acknowledged).lastIndexOf(true);
    if (last < 0) continue;
    const allowed = new Set(attempts.slice(last).map((a) => a.status));
    const token = await tokenFor(attempts[0]!.entityId);
    const reply = token ? await call(`${survivorUrl}/v2/tasks/${taskId}`, 'GET', token) : null;
    const status = reply && ok(reply.status) ? (reply.json as { status: string }).status : `not found (${reply?.status ?? 'no token'})`;
    if (!allowed.has(status as 'todo' | 'done')) lost.push(`task ${taskId}: acknowledged ${attempts[last]!.status}, stored ${status}`);
  }

  for (const entityId of entityIds) {
    const token = await tokenFor(entityId);
    if (!token) {
      halfWritten.push(`${entityId}: in the database but refused by POST /accounts/auth`);
      continue;
    }
    const tasks = async () => {
      const reply = await call(`${survivorUrl}/v2/tasks?page_size=500`, 'GET', token);
      if (!ok(reply.status)) throw new Error(`GET /v2/tasks answered ${reply.status}`);
      return planned(reply.json);
    };
    const before = await tasks();
    for (const r of await regionsOf(token)) {
      const reply = await call(`${survivorUrl}/v2/regions/${r.region.code}`, 'PUT', token, { employee_count: r.config.employee_count });
      if (!ok(reply.status)) halfWritten.push(`${entityId}: writing its ${r.region.code} again answered ${reply.status}`);
    }
    if ((await tasks()) !== before) halfWritten.push(`${entityId}: its tasks changed when its stored regions were written again`);
  }
  return { lost, halfWritten, entitiesChecked: entityIds.length };
}
