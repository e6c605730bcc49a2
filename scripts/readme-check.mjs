#!/usr/bin/env node
// Runs the README's "First calls" blocks as pasted, in one bash, against a running Statehouse: every curl must
// answer 2xx (curl --fail-with-body). The `export X=le_...` lines a reader fills in by hand are filled in here
// from the answer before them (RESOLVERS). Checks that the quick start works literally; cheap to rerun:
//
//   npm start                                   # in another terminal; note the active demo legal entity
//   DEMO=le_... node scripts/readme-check.mjs   # BASE (default http://127.0.0.1:8080) and KEY (default .statehouse/demo-api-key)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const base = process.env.BASE ?? 'http://127.0.0.1:8080';
const key = process.env.KEY ?? readFileSync(new URL('.statehouse/demo-api-key', root), 'utf8').trim();
const demo = process.env.DEMO;
if (!demo) {
  console.error('Set DEMO to the active demo legal entity that `npm start` printed ("Demo legal entity (active, …)").');
  process.exit(2);
}

// A value from the last curl's answer (or another file): a JavaScript expression over its parsed JSON `j`.
const pick = (expression, file = '"$LAST"') =>
  `node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(${expression})' ${file}`;
// A value from another GET (the reader finds it in an earlier answer).
const fetched = (path, token, expression) =>
  `command curl -sS --fail-with-body "$BASE${path}" -H "Authorization: Bearer $${token}" > "$LAST.extra" && ${pick(expression, '"$LAST.extra"')}`;

/** How each `export NAME=…` line of the README gets its value. */
const RESOLVERS = {
  BASE: `printf %s "$CHECK_BASE"`,
  KEY: `printf %s "$CHECK_KEY"`,
  LE: pick('j.legal_entity_id'),
  QUESTION: pick('j.find((t) => t.source.answer_type === "date").id'),
  TASK: fetched('/tasks?status=todo', 'TOKEN', 'j.find((t) => t.definition.id === "ca-foreign-qualification-corporation").id'),
  DEMO: `printf %s "$CHECK_DEMO"`,
  ACCOUNT: fetched('/v2/agency_accounts', 'DEMO_TOKEN', 'j.find((a) => a.agency.id === "ca-edd").id'),
  CONNECTION: pick('j.connection_id'),
};

const readme = readFileSync(new URL('README.md', root), 'utf8');
const section = readme.slice(readme.indexOf('## First calls'), readme.indexOf('\n## ', readme.indexOf('## First calls') + 1));
const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
const script = blocks.join('\n').replace(/^export (\w+)=.*$/gm, (line, name) => {
  if (!RESOLVERS[name]) throw new Error(`README line without a resolver: ${line}`);
  // Not `export X="$(…)"`: export would hide a failing resolver from `set -e`.
  return `${name}="$(${RESOLVERS[name]})"; test -n "$${name}"; export ${name}; echo "# ${name}=$${name}" >&2`;
});

const prelude = `set -eo pipefail
LAST=$(mktemp)
trap 'echo "readme-check: failed at: $BASH_COMMAND" >&2' ERR
# Every curl of the README must succeed; its answer is kept for the next \`export\` line.
curl() { command curl --fail-with-body -sS "$@" > "$LAST"; cat "$LAST"; echo; }
`;
const run = spawnSync('bash', ['-c', prelude + script], {
  env: { ...process.env, CHECK_BASE: base, CHECK_KEY: key, CHECK_DEMO: demo },
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
});
const calls = (script.match(/\bcurl /g) ?? []).length;
if (run.status !== 0) {
  console.error(run.stdout.split('\n').slice(-20).join('\n'));
  console.error(`readme-check: the README's first calls failed (${blocks.length} blocks)`);
  process.exit(1);
}
console.log(`readme-check: ${blocks.length} blocks, ${calls} curl calls, all answered 2xx against ${base}`);
