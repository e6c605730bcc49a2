#!/usr/bin/env node
// Runs the compiled CLI (dist/, built by `npm run build`, which `npm ci` runs through `prepare`).
// During development, `npm run dev` / `npm run statehouse` run the TypeScript sources through tsx instead.
try {
  await import('../dist/src/cli/main.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/src/cli/main.js')) {
    process.stderr.write('statehouse is not built: run `npm run build` (or `npm ci`, which builds it).\n');
    process.exit(1);
  }
  throw error;
}
