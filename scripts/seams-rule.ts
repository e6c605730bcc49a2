// The module seam rule (docs/architecture.md, "Contracts, and the checks that keep them"), as pure functions
// over paths relative to src/ (posix separators), so that it can be tested on small fixtures.

/** What a contract may import besides other modules' contracts: the layers below every module. */
export const CONTRACT_MAY_IMPORT = ['lib/', 'db/', 'http/', 'catalog/', 'engine/', 'pages/', 'crypto/'] as const;

/**
 * Modules that compose other modules' factories, like app.ts: the demo seeds its data through the modules that own
 * the rows, without the HTTP application (its index.ts wires them; its service takes their module types).
 */
export const COMPOSERS = ['demo'] as const;

const MODULE_FILE = /^modules\/([^/]+)\/(.+)$/;

/**
 * Why `from` may not import `target` (both relative to src/, e.g. `modules/webhooks/index.ts`); null when it may.
 * `contractSide`: `from` is a contract, or a file of its module that its contract reaches (re-exports): what a
 * contract offers must stand on the layers below and other contracts only, whichever file of the module holds it.
 */
export function seamViolation(from: string, target: string, contractSide = false): string | null {
  const source = MODULE_FILE.exec(from);
  if (!source || from.endsWith('.test.ts')) return null; // only module code; tests may import anything
  const [, module, file] = source;
  const reached = MODULE_FILE.exec(target);
  if (reached?.[2] === 'index.ts') {
    if ((COMPOSERS as readonly string[]).includes(module!) && reached[1] !== module) return null;
    return `imports the index.ts of ${reached[1]} (only app.ts, the CLI, the bench, tests and the demo wire modules)`;
  }
  if (file === 'contract.ts' || contractSide) {
    if (reached && reached[1] !== module && reached[2] === 'contract.ts') return null;
    if (reached && reached[1] === module) return null; // followed: the file joins the contract's side
    if (!reached && CONTRACT_MAY_IMPORT.some((layer) => target.startsWith(layer))) return null;
    return `${file === 'contract.ts' ? 'a contract' : `${file} (reached by ${module}'s contract)`} imports only ${CONTRACT_MAY_IMPORT.join(', ')}, its own module and other modules' contracts`;
  }
  if (reached && reached[1] !== module && reached[2] !== 'contract.ts') return `imports ${reached[1]}'s internals, not its contract.ts`;
  return null;
}

/**
 * The files of each module on its contract's side: contract.ts and every file of the same module it reaches
 * through imports (transitively). `importsOf` gives a file's imports as paths relative to src/.
 */
export function contractSides(files: readonly string[], importsOf: (file: string) => readonly string[]): Set<string> {
  const side = new Set<string>();
  const queue = files.filter((f) => /^modules\/[^/]+\/contract\.ts$/.test(f));
  while (queue.length) {
    const file = queue.pop()!;
    if (side.has(file)) continue;
    side.add(file);
    const module = MODULE_FILE.exec(file)![1];
    for (const target of importsOf(file)) if (MODULE_FILE.exec(target)?.[1] === module) queue.push(target);
  }
  return side;
}
