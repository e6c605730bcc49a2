// What the list of releases says: their order, the next id, a retired requirement's last description, the net
// changes between two releases.
import type { Catalog } from './catalog.js';
import { RELEASE_ID, type CatalogRelease, type RequirementChange } from './releases.types.js';

/** Compares release ids by date, then number (`2026.11.28-10` after `2026.11.28-9`). */
export function compareReleaseIds(a: string, b: string): number {
  const [ma, mb] = [RELEASE_ID.exec(a), RELEASE_ID.exec(b)];
  if (!ma || !mb) return a.localeCompare(b);
  const key = (m: RegExpExecArray) => `${m[1]}${m[2]}${m[3]}${m[4]!.padStart(3, '0')}`;
  return key(ma).localeCompare(key(mb));
}

/**
 * A retired requirement's last released region, title, sources, category and priority: its latest `added`/`changed`
 * entry (category and priority from the latest entry recording them).
 */
export function lastKnownIn(releases: readonly CatalogRelease[]): (id: string) => RequirementChange | undefined {
  return (id) => lastKnownOf(releases, id);
}

function lastKnownOf(releases: readonly CatalogRelease[], id: string): RequirementChange | undefined {
  let found: RequirementChange | undefined;
  for (let i = releases.length - 1; i >= 0; i--) {
    for (const entry of releases[i]!.changes) {
      if (entry.id !== id) continue;
      if (!found) {
        if (entry.change !== 'retired') found = { ...entry };
      } else {
        if (!found.category && entry.category) found.category = entry.category;
        if (!found.priority && entry.priority) found.priority = entry.priority;
      }
      if (found?.category && found.priority) return found;
    }
  }
  return found;
}

/**
 * The requirements released once and no longer in `catalog`, keyed by id: each as its latest release entry names it
 * (region, title, sources), with its category and priority as last released. What describes a task of a retired
 * requirement once the catalog has no definition for it (modules/tasks, task.deleted).
 */
export function retiredRequirements(releases: readonly CatalogRelease[], catalog: Catalog): Map<string, RequirementChange> {
  const out = new Map<string, RequirementChange>();
  for (let i = releases.length - 1; i >= 0; i--) {
    for (const entry of releases[i]!.changes) {
      if (out.has(entry.id) || catalog.requirement(entry.id)) continue;
      const known = entry.category && entry.priority ? undefined : lastKnownOf(releases, entry.id);
      const category = entry.category ?? known?.category;
      const priority = entry.priority ?? known?.priority;
      out.set(entry.id, { ...entry, ...(category && { category }), ...(priority && { priority }) });
    }
  }
  return out;
}

/**
 * The net changes of the releases after `from` up to `to` (both release ids, `from` older): a requirement added then
 * retired in between is not listed; changed fields are united.
 */
export function changesBetween(releases: readonly CatalogRelease[], from: string, to: string): RequirementChange[] {
  const start = releases.findIndex((r) => r.id === from);
  const end = releases.findIndex((r) => r.id === to);
  const net = new Map<string, { first: RequirementChange; last: RequirementChange; fields: Set<string> }>();
  for (const release of releases.slice(start + 1, end + 1)) {
    for (const change of release.changes) {
      const seen = net.get(change.id);
      if (!seen) net.set(change.id, { first: change, last: change, fields: new Set(change.fields ?? []) });
      else {
        seen.last = change;
        for (const f of change.fields ?? []) seen.fields.add(f);
      }
    }
  }
  const out: RequirementChange[] = [];
  for (const { first, last, fields } of net.values()) {
    const wasThere = first.change !== 'added';
    const isThere = last.change !== 'retired';
    const base = {
      id: last.id, region: last.region, title: last.title, sources: last.sources,
      ...(last.category && { category: last.category }), ...(last.priority && { priority: last.priority }),
    };
    if (!wasThere && isThere) out.push({ change: 'added', ...base });
    else if (wasThere && !isThere) out.push({ change: 'retired', ...base });
    else if (wasThere && isThere) out.push({ change: 'changed', ...base, fields: fields.size ? [...fields] : ['(re-added)'] });
  }
  const order = { added: 0, changed: 1, retired: 2 };
  return out.sort((a, b) => order[a.change] - order[b.change] || a.region.localeCompare(b.region) || a.id.localeCompare(b.id));
}

/** The next id of a day: `YYYY.MM.DD-N`, N one more than that day's last release. */
export function nextReleaseId(releases: readonly CatalogRelease[], day: string): string {
  const prefix = day.replaceAll('-', '.');
  const numbers = releases.map((r) => RELEASE_ID.exec(r.id)).filter((m) => m && `${m[1]}.${m[2]}.${m[3]}` === prefix).map((m) => Number(m![4]));
  return `${prefix}-${Math.max(0, ...numbers) + 1}`;
}

/** A release's list item: everything but the change list. */
export function releaseSummary(release: CatalogRelease) {
  return { id: release.id, date: release.date, title: release.title, notes: release.notes, baseline: release.baseline ?? false, summary: release.summary };
}
