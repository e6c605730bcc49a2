/**
 * Waits until `probe` returns something truthy, polling; throws with `what` when `timeoutMs` passes first.
 * Tests wait on conditions, never on fixed sleeps: the limit is a generous safety net for a busy machine.
 */
export async function waitUntil<T>(
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  what: string,
  { timeoutMs = 60_000, intervalMs = 50 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
