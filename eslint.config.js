// ESLint 9 flat config: typescript-eslint's recommended rules, no import cycles, and the layering
// (docs/decisions/0017-dependency-rules.md; docs/architecture.md, "Layers and the rule that keeps them").
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

// Each layer folder, and what of src it may import (besides itself). Everything else in src is refused.
// lib and config.ts are the bottom; crypto (the vault), http, db, jobs, catalog, engine and pages sit on them; modules above;
// app.ts, server.ts and production.ts above the modules; cli at the top.
const below = (target, allowed) => ({
  target: `./src/${target}`,
  from: './src',
  except: [`./${target}`, ...allowed.map((a) => `./${a}`)],
  message: `src/${target} may import only ${allowed.length ? allowed.join(', ') : 'nothing else of src'}.`,
});
const layers = [
  below('lib', []),
  below('config.ts', ['lib']),
  below('catalog', ['lib']),
  below('engine', ['lib', 'catalog']),
  below('crypto', ['lib', 'config.ts']),
  below('db', ['lib', 'config.ts']),
  below('jobs', ['lib', 'config.ts', 'db']),
  below('http', ['lib', 'config.ts', 'db']),
  below('pages', ['lib', 'db', 'catalog', 'engine']),
  // Between modules: a capability's hosted page routes (`*pages.routes.ts`) are registered by its index.ts or
  // app.ts, never imported by other module code. Hosted-session links, the browser session behind them and the
  // pages' shared hook are modules/hosted-sessions, which any module may use and which uses no module. auth
  // (token issuing) uses legal-entities, never the reverse (the scope type is http/principals.ts).
  {
    target: './src/modules/*/!(index).ts',
    from: './src/modules/*/*pages.routes.ts',
    message: "Page routes are registered by their module's index.ts or app.ts: share a service, hosted-sessions, pages or lib instead.",
  },
  below('modules/hosted-sessions', ['lib', 'config.ts', 'db', 'http', 'jobs', 'pages']),
  {
    target: './src/modules/legal-entities',
    from: './src/modules/auth',
    message: 'legal-entities must not import modules/auth (auth imports legal-entities).',
  },
  // Re-planning: tasks → locations → planning, legal-entities → planning (docs/architecture.md, "The data flow of one re-planning").
  {
    target: './src/modules/planning',
    from: ['./src/modules/tasks', './src/modules/locations', './src/modules/legal-entities', './src/modules/automations'],
    message: 'planning is called by tasks, locations, legal-entities and automations, never the reverse.',
  },
  {
    target: './src/modules/locations',
    from: './src/modules/tasks',
    message: 'locations must not import modules/tasks (tasks imports locations).',
  },
  // The task views show automations, and the hosted form starts one: tasks → automations, never the reverse.
  {
    target: './src/modules/automations',
    from: './src/modules/tasks',
    message: 'automations must not import modules/tasks (tasks imports automations).',
  },
  // The hosted task list offers the calendar subscription: tasks → calendar, never the reverse (the feed reads the catalog).
  {
    target: './src/modules/calendar',
    from: './src/modules/tasks',
    message: 'calendar must not import modules/tasks (tasks imports calendar).',
  },
  // The handbook reads and sets employee counts through locations and re-plans: handbook → locations, planning; never the reverse.
  {
    target: ['./src/modules/locations', './src/modules/planning'],
    from: './src/modules/handbook',
    message: 'locations and planning must not import modules/handbook (the handbook uses them).',
  },
  // Webhooks: the deliveries half uses the endpoints half (webhooks.types.ts), never the reverse.
  {
    target: './src/modules/webhooks',
    from: './src/modules/webhook-deliveries',
    message: 'webhooks must not import modules/webhook-deliveries (deliveries use the endpoints through webhooks.types.ts).',
  },
  {
    target: './src/modules',
    from: [
      './src/app.ts',
      './src/app-http.ts',
      './src/app-services.ts',
      './src/event-payloads.ts',
      './src/server.ts',
      './src/production.ts',
      './src/cli',
    ],
    message: 'Modules must not import app.ts (and its app-*.ts, event-payloads.ts), server.ts, production.ts or the CLI.',
  },
  {
    target: ['./src/app.ts', './src/server.ts', './src/production.ts'],
    from: './src/cli',
    message: 'app.ts, server.ts and production.ts must not import the CLI.',
  },
];

export default tseslint.config(
  {
    // test-output: the tests' build of src (JavaScript). clients/*/src/generated and clients/*/dist: built from the
    // OpenAPI document (clients/README.md), never edited.
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'bench/results/**',
      'test-output/**',
      'clients/*/src/generated/**',
      'clients/*/dist/**',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    settings: {
      // Without these import-x parses no .ts file it follows, and no-cycle sees nothing.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      // Resolves the sources' `./x.js` specifiers to `x.ts` as TypeScript does. Pinned to versions built on
      // enhanced-resolve: later ones need platform binaries (unrs-resolver) that this registry does not all
      // serve, and npm 11 then rejects its own lock file in `npm ci` (docs/decisions/0017-dependency-rules.md).
      'import-x/resolver': { typescript: { project: './tsconfig.json' } },
    },
    rules: {
      // Runtime cycles between files (type-only imports are not followed by the rule; the layer zones below
      // cover those between folders).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // A leading underscore marks a deliberately unused binding: `const { omitted: _, ...rest } = row`.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Small files: no source file over 300 lines, in src, bench and scripts alike (catalog data is YAML, exempt).
    files: ['src/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'clients/*/src/**/*.ts', 'clients/*/scripts/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    // No test file over 400 lines: a longer one is split by what it tests.
    files: ['**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Migrations are frozen in time and take Kysely<any> (Kysely's documented pattern): they must not depend
    // on today's schema types.
    files: ['src/db/migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The layering holds for the sources; tests and benchmarks may import anything (and cannot close a cycle:
    // nothing in src imports them).
    files: ['src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layers }],
    },
  },
);
