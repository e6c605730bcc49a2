/**
 * The built binary bundles its code with esbuild (scripts/bundle.mjs); pdfkit finds its font metrics at run
 * time through its own package, so the handbook PDF must render from bundled code, not only under tsx.
 * This bundles a small entry that renders a handbook with the build's own options and runs it with plain node.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type BuildOptions } from 'esbuild';
import { PDFParse } from 'pdf-parse';
import { afterAll, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

it('renders the handbook PDF from code bundled as the binary bundles it', async () => {
  const { bundleOptions } = (await import(pathToFileURL(path.join(ROOT, 'scripts/bundle.mjs')).href)) as { bundleOptions: BuildOptions };
  // Inside the project, so that what the bundle leaves external resolves from its node_modules as the binary's does.
  const dir = await mkdtemp(path.join(ROOT, 'dist', 'test-handbook-bundle-'));
  dirs.push(dir);
  const entry = path.join(dir, 'entry.ts');
  await writeFile(
    entry,
    `import { renderHandbookPdf } from ${JSON.stringify(path.join(ROOT, 'src/modules/handbook/handbook-pdf.ts'))};
const pdf = await renderHandbookPdf({ businessName: 'Bundled Bakery LLC', version: 1, publishedAt: '2026-01-15T12:00:00.000Z', regionNames: ['Oregon'],
  sections: [{ region: 'US', heading: 'Policies for every employee', policies: [{ id: 'us-x', title: 'Equal employment opportunity', text: 'We hire on merit.' }] }] });
process.stdout.write(pdf.toString('base64'));
`,
  );
  await build({ ...bundleOptions, entryPoints: [entry], outdir: path.join(dir, 'out'), sourcemap: false, logLevel: 'silent' });
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(dir, 'out', 'entry.js')], { maxBuffer: 20_000_000 });
  const parser = new PDFParse({ data: new Uint8Array(Buffer.from(stdout, 'base64')) });
  try {
    const text = (await parser.getText()).text;
    expect(text).toContain('Bundled Bakery LLC');
    expect(text).toContain('Equal employment opportunity');
  } finally {
    await parser.destroy();
  }
});
