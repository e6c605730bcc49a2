import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalog } from './catalog.js';
import { questionTitle } from './question-title.js';

const FIXTURE = fileURLToPath(new URL('../../test/fixtures/catalog-localities', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The locality fixture with one edit of a file's text. */
function loadEdited(file: string, edit: (text: string) => string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'catalog-localities-'));
  dirs.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  const target = path.join(dir, file);
  writeFileSync(target, edit(readFileSync(target, 'utf8')));
  return () => loadCatalog(dir);
}

describe('catalog localities', () => {
  it('are loaded per region, and a locality question is titled "<locality>, <region>"', () => {
    const catalog = loadCatalog(FIXTURE);
    expect([...catalog.regions.get('PA')!.localities.keys()]).toEqual(['pa-philadelphia', 'pa-pittsburgh']);
    expect(catalog.regions.get('NJ')!.localities.size).toBe(0);
    const question = catalog.questionByFact.get('in_locality')!;
    expect(questionTitle(catalog, question, 'PA', 'Pennsylvania', 'pa-philadelphia')).toBe('Does the business have employees or a place of business in Philadelphia, Pennsylvania?');
    const region = catalog.questionByFact.get('has_employees')!;
    expect(questionTitle(catalog, region, 'PA', 'Pennsylvania', 'once')).toBe('Do you have employees who live or work in Pennsylvania?');
  });

  it('refuses an in_locality naming no locality of its own file', () => {
    const load = loadEdited('regions/PA.yaml', (t) => t.replace('in_locality: pa-pittsburgh', 'in_locality: nj-newark'));
    expect(load).toThrow(/PA\.yaml: \/requirements\/2\/applies_when: in_locality 'nj-newark' is not a locality of this region/);
  });

  it('refuses a locality id without the region prefix, and a duplicate one', () => {
    expect(loadEdited('regions/PA.yaml', (t) => t.replace('id: pa-pittsburgh,', 'id: pittsburgh,'))).toThrow(/\/localities\/1\/id: must start with 'pa-'/);
    expect(loadEdited('regions/PA.yaml', (t) => t.replace('id: pa-pittsburgh,', 'id: pa-philadelphia,'))).toThrow(/\/localities\/1\/id: duplicate locality id pa-philadelphia/);
  });

  it('refuses in_locality without an in-locality question', () => {
    const load = loadEdited('questions.yaml', (t) => t.replace('fact: in_locality', 'fact: registration_number_digit'));
    expect(load).toThrow(/in_locality needs a question for fact in_locality/);
  });
});
