// The catalog's consistency check (CI runs it): `npx tsx scripts/check-catalog.ts [CA NY …] [--json]`.
// Fails when a requirement's prose states a due date its schedule does not compute, when it cites only home pages,
// when its confidence lacks its evidence (notes, verification), when a region misses a family it must cover, or
// when a cell of the coverage matrix is missing (src/catalog/coverage.ts), when more than 5 % of the catalog is
// uncertain (catalog/README.md), or when the catalog differs from its latest release (catalog/releases/: cut one with
// `npx statehouse catalog release`, docs/catalog-releases.md). Prints the catalog's figures and the matrix either way.
import { loadCatalog } from '../src/catalog/catalog.js';
import { catalogFigures, catalogProblems, ISSUE_24_FAMILIES } from '../src/engine/catalog-check.js';
import { REGIONS } from '../src/catalog/regions.js';
import { coverageMatrix, formatMatrix } from '../src/catalog/coverage.js';
import { unreleasedChanges } from '../src/catalog/releases.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const asked = args.filter((a) => a !== '--json').map((a) => a.toUpperCase());
const codes = asked.length > 0 ? asked : REGIONS.map((r) => r.code);

const catalog = loadCatalog();
const problems = [...catalogProblems(catalog, codes, { wholeCatalog: asked.length === 0 }), ...unreleasedChanges(catalog)];
const figures = catalogFigures(catalog);

const matrix = coverageMatrix(catalog);

if (json) console.log(JSON.stringify({ figures, matrix, problems }, null, 2));
else {
  const pct = (n: number) => `${((100 * n) / figures.requirements).toFixed(1)} %`;
  console.log(
    `catalog valid: ${catalog.regions.size} region files + federal, ${figures.requirements} requirements, ${catalog.questions.length} questions`,
  );
  console.log(
    `  sources: ${figures.sources} cited (${figures.uniqueSources} distinct), deep links ${figures.deepSources} (${((100 * figures.deepSources) / figures.sources).toFixed(1)} %)`,
  );
  console.log(
    `  verified: ${figures.verified} (${pct(figures.verified)}); uncertain: ${figures.uncertain} (${pct(figures.uncertain)}); home-page-only: ${figures.homePageOnly} (${pct(figures.homePageOnly)})`,
  );
  const newFamilies = Object.entries(figures.families)
    .filter(([f]) => ISSUE_24_FAMILIES.has(f))
    .reduce((n, [, c]) => n + c, 0);
  const established = figures.requirements - newFamilies;
  const establishedUncertain = figures.uncertain - matrixUncertain(matrix);
  console.log(
    `  outside issue 24's families: ${established} requirements, ${establishedUncertain} uncertain (${((100 * establishedUncertain) / established).toFixed(1)} %; the families' own shares are in the matrix)`,
  );
  console.log(
    `  families: ${Object.entries(figures.families)
      .map(([f, n]) => `${f} ${n}`)
      .join(', ')}`,
  );
  for (const line of formatMatrix(matrix)) console.log(line);
  for (const problem of problems) console.log(`  problem: ${problem}`);
  console.log(problems.length === 0 ? 'catalog consistent' : `${problems.length} problem(s)`);
}
// exitCode, not exit(): a large --json output into a pipe is written whole before the process ends.
process.exitCode = problems.length > 0 ? 1 : 0;

/** The uncertain requirements of issue 24's families (each counted once: a family's cells are its own requirements). */
function matrixUncertain(rows: ReturnType<typeof coverageMatrix>): number {
  return rows.filter((row) => ISSUE_24_FAMILIES.has(row.family)).reduce((n, row) => n + row.uncertain, 0);
}
