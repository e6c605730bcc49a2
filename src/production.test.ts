import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { developmentWarning, productionProblems } from './production.js';

const KEY = Buffer.alloc(32, 3).toString('base64');

describe('environment', () => {
  it('development by default; NODE_ENV=production or STATEHOUSE_ENV=production is production; STATEHOUSE_ENV wins', () => {
    expect(loadConfig({}).environment).toBe('development');
    expect(loadConfig({ NODE_ENV: 'test' }).environment).toBe('development');
    expect(loadConfig({ NODE_ENV: 'production' }).environment).toBe('production');
    expect(loadConfig({ STATEHOUSE_ENV: 'production' }).environment).toBe('production');
    expect(loadConfig({ NODE_ENV: 'production', STATEHOUSE_ENV: 'development' }).environment).toBe('development');
    expect(loadConfig({ NODE_ENV: 'development', STATEHOUSE_ENV: 'production' }).environment).toBe('production');
    expect(() => loadConfig({ STATEHOUSE_ENV: 'staging' })).toThrow(ConfigError);
  });

  it('production problems: one per unsafe choice, none for a safe setup', () => {
    const unsafe = loadConfig({ STATEHOUSE_ENV: 'production' });
    expect(productionProblems(unsafe, { demo: true })).toHaveLength(3);
    const safe = loadConfig({ STATEHOUSE_ENV: 'production', STATEHOUSE_VAULT_KEY: KEY, PUBLIC_BASE_URL: 'https://sh.example.com' });
    expect(productionProblems(safe, { demo: false })).toEqual([]);
    const warning = developmentWarning(loadConfig({}), { demo: true });
    expect(warning).toMatch(/DEVELOPMENT mode/);
    expect(warning).toMatch(/STATEHOUSE_VAULT_KEY is not set/);
    expect(warning).toMatch(/--demo/);
    expect(warning).toMatch(/statehouse platforms callbacks add <platform_id> <origin>/);
    expect(warning).not.toContain(KEY);
  });
});
