// Validates the catalog and reports coverage gaps: `npx tsx scripts/check-catalog.ts [CA NY …]`.
import { loadCatalog } from '../src/catalog/catalog.js';
import { coverageProblems } from '../src/catalog/coverage.js';
import { REGIONS } from '../src/catalog/regions.js';

const catalog = loadCatalog();
const codes = process.argv.slice(2).length > 0 ? process.argv.slice(2) : REGIONS.map((r) => r.code);
const problems = codes.flatMap((code) => coverageProblems(catalog, code.toUpperCase()));
const requirements = [...catalog.regions.values()].reduce((n, r) => n + r.requirements.length, 0);
console.log(`catalog valid: ${catalog.regions.size} region files, ${requirements} requirements, ${catalog.questions.length} questions`);
for (const problem of problems) console.log(`  gap: ${problem}`);
process.exit(problems.length > 0 ? 1 : 0);
