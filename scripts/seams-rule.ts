// The module seam rule (docs/architecture.md, "Contracts, and the checks that keep them"), as a pure function
// over paths relative to src/ (posix separators), so that it can be tested on small fixtures.

/** What a contract may import besides other modules' contracts: the layers below every module. */
export const CONTRACT_MAY_IMPORT = ['lib/', 'db/', 'http/', 'catalog/', 'engine/', 'pages/', 'crypto/'] as const;

const MODULE_FILE = /^modules\/([^/]+)\/(.+)$/;

/** Why `from` may not import `target` (both relative to src/, e.g. `modules/webhooks/index.ts`); null when it may. */
export function seamViolation(from: string, target: string): string | null {
  const source = MODULE_FILE.exec(from);
  if (!source || from.endsWith('.test.ts')) return null; // only module code; tests may import anything
  const [, module, file] = source;
  const reached = MODULE_FILE.exec(target);
  if (reached?.[2] === 'index.ts') return `imports the index.ts of ${reached[1]} (only app.ts, the CLI, the bench and tests wire modules)`;
  if (file === 'contract.ts') {
    if (reached && reached[1] !== module && reached[2] === 'contract.ts') return null;
    if (!reached && CONTRACT_MAY_IMPORT.some((layer) => target.startsWith(layer))) return null;
    return `a contract imports only ${CONTRACT_MAY_IMPORT.join(', ')} and other modules' contracts`;
  }
  if (reached && reached[1] !== module && reached[2] !== 'contract.ts') return `imports ${reached[1]}'s internals, not its contract.ts`;
  return null;
}
