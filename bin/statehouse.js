#!/usr/bin/env -S node --max-semi-space-size=4 --max-old-space-size=256
// --max-semi-space-size=4: V8's young generation at 4 MiB semi-spaces instead of 16: about 20 MiB less
// resident memory. --max-old-space-size=256: a heap limit V8 plans its collections by; without one it lets
// the heap grow towards gigabytes before collecting (peak RSS under the bench's load 253 → 146 MiB, at a
// live heap of 30–45 MiB; docs/benchmarks.md). `npm start` passes the same flags; V8 takes them only on the
// command line.
// Runs the compiled CLI: the bundle dist/bundle/statehouse.js of src/cli/statehouse.ts (built by `npm run build`,
// which `npm ci` runs through `prepare`; scripts/bundle.mjs).
// During development, `npm run dev` / `npm run statehouse` run the TypeScript sources through tsx instead.
try {
  await import('../dist/bundle/statehouse.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bundle/statehouse.js')) {
    process.stderr.write('statehouse is not built: run `npm run build` (or `npm ci`, which builds it).\n');
    process.exit(1);
  }
  throw error;
}
