import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, createTestApp, type TestApp } from './helpers/app.js';
import { runCli } from './helpers/cli.js';
import { solidPng } from './helpers/images.js';

// `statehouse platforms brand`: the same rules as the operator API (test/platform-branding.test.ts), from files.
describe('statehouse platforms brand', { timeout: 180_000 }, () => {
  let t: TestApp;
  let platformId: string;
  const dir = mkdtempSync(path.join(tmpdir(), 'statehouse-brand-'));
  const env = () => ({ DATABASE_URL: t.url, STATEHOUSE_DATA_DIR: dir });

  beforeAll(async () => {
    t = await createTestApp();
    ({ platformId } = await createPlatform(t.db, 'Acme Payroll'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets the display name, accent and logo from a file, shows them, and clears one', async () => {
    const logoFile = path.join(dir, 'logo.png');
    writeFileSync(logoFile, solidPng(120, 40));
    const set = await runCli(
      ['platforms', 'brand', platformId, '--name', 'Acme', '--accent', '#0b5fff', '--logo', logoFile, '--json'],
      env(),
    );
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      platform_id: platformId,
      display_name: 'Acme',
      accent_color: '#0b5fff',
      logo: { content_type: 'image/png' },
    });

    const shown = await runCli(['platforms', 'brand', platformId], env());
    expect(shown.stdout).toContain('display name  Acme');
    expect(shown.stdout).toContain('accent colour #0b5fff');
    expect(shown.stdout).toMatch(/logo {10}image\/png, \d+ bytes, \/hosted\/assets\/logos\/[0-9a-f]{64}/);

    const cleared = await runCli(['platforms', 'brand', platformId, '--clear', 'logo', '--json'], env());
    expect(JSON.parse(cleared.stdout)).toMatchObject({ display_name: 'Acme', accent_color: '#0b5fff', logo: null });
  });

  it('refuses a low-contrast accent, an SVG logo and a missing file, with messages, changing nothing', async () => {
    const low = await runCli(['platforms', 'brand', platformId, '--accent', '#ffcc00'], env());
    expect(low.code).toBe(1);
    expect(low.stderr).toMatch(/#ffcc00 reaches only 1\.\d\d:1 against white; .*The nearest darker shade that does is #[0-9a-f]{6}/);
    const svgFile = path.join(dir, 'logo.svg');
    writeFileSync(svgFile, '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    const svg = await runCli(['platforms', 'brand', platformId, '--logo', svgFile], env());
    expect(svg.code).toBe(1);
    expect(svg.stderr).toContain('SVG logos are not accepted');
    const missing = await runCli(['platforms', 'brand', platformId, '--logo', path.join(dir, 'nope.png')], env());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--logo: no file at');
    const both = await runCli(['platforms', 'brand', platformId, '--accent', '#000000', '--clear', 'accent'], env());
    expect(both.code).toBe(2);
    const unknown = await runCli(['platforms', 'brand', 'plt_nope', '--accent', '#000000'], env());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Platform 'plt_nope' not found");

    const row = await t.db.selectFrom('platform_brands').selectAll().where('platform_id', '=', platformId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ accent_color: '#0b5fff', logo: null });
  });
});
