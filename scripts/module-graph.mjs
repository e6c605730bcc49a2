// Prints the module dependency graph of src/modules as a mermaid flowchart (docs/architecture.md), from the real
// imports, type imports included (madge): `node scripts/module-graph.mjs`. An edge a --> b: code of a imports b.
import madge from 'madge';

const result = await madge('src/modules', { fileExtensions: ['ts'], tsConfig: 'tsconfig.json', excludeRegExp: [/\.test\.ts$/] });
const moduleOf = (file) => file.split('/')[0];
const edges = new Map();
for (const [file, imports] of Object.entries(result.obj())) {
  const from = moduleOf(file);
  if (file.endsWith('/index.ts') && from === 'demo') continue; // the demo's index.ts composes modules like app.ts
  for (const imported of imports) {
    const to = moduleOf(imported);
    if (to === from || imported.startsWith('..')) continue;
    const key = `${from} --> ${to}`;
    edges.set(key, (edges.get(key) ?? new Set()).add(imported.split('/').slice(1).join('/')));
  }
}
const lines = [...edges.keys()].sort().map((edge) => `  ${edge}`);
process.stdout.write(['```mermaid', 'flowchart LR', ...lines, '```', ''].join('\n'));
if (process.argv.includes('--files'))
  for (const [edge, files] of [...edges].sort()) process.stderr.write(`${edge}: ${[...files].sort().join(', ')}\n`);
