import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { productionProblems } from '../src/production.js';
import { TEST_VAULT_KEY } from './helpers/app.js';
import { runCli } from './helpers/cli.js';

describe('production refuses STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE=1', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'statehouse-webhooks-production-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const safe = {
    STATEHOUSE_DATA_DIR: dataDir,
    STATEHOUSE_ENV: 'production',
    NODE_ENV: undefined,
    STATEHOUSE_VAULT_KEY: TEST_VAULT_KEY.toString('base64'),
    PUBLIC_BASE_URL: 'https://sh.example.com',
  };

  it('statehouse serve stops before opening anything, naming the setting', async () => {
    const result = await runCli(['serve'], { ...safe, STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE: '1' });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain('production: STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE is on');
    expect(result.stderr.match(/^ {2}- /gm)).toHaveLength(1);
    expect(result.stderr).not.toContain('listening');
  }, 120_000);

  it('is one of the problems only when set (development lists it in its warning)', () => {
    const config = (env: Record<string, string>) => loadConfig({ ...safe, ...env });
    expect(productionProblems(config({}), { demo: false })).toEqual([]);
    expect(productionProblems(config({ STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE: '1' }), { demo: false })).toEqual([
      expect.stringContaining('STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE is on'),
    ]);
  });
});
