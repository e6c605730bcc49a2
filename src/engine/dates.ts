/** Calendar arithmetic on 'YYYY-MM-DD' strings, in UTC, without time zones. */

export const toDate = (iso: string) => new Date(`${iso}T00:00:00Z`);
export const toIso = (date: Date) => date.toISOString().slice(0, 10);

export function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The date in `year`/`month` (1-12, may overflow into later years) on `day` ('last' or clamped to the month). */
export function dateIn(year: number, month: number, day: number | 'last'): string {
  const y = year + Math.floor((month - 1) / 12);
  const m = ((((month - 1) % 12) + 12) % 12) + 1;
  const last = lastDayOfMonth(y, m);
  const d = day === 'last' ? last : Math.min(day, last);
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export function addDays(iso: string, days: number): string {
  const date = toDate(iso);
  date.setUTCDate(date.getUTCDate() + days);
  return toIso(date);
}

export function addMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return dateIn(y, m + months, d);
}

export const yearOf = (iso: string) => Number(iso.slice(0, 4));
export const monthOf = (iso: string) => Number(iso.slice(5, 7));
export const dayOf = (iso: string) => Number(iso.slice(8, 10));
