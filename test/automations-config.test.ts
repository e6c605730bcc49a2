import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { checkStartMode } from '../src/production.js';

const PRODUCTION = {
  STATEHOUSE_ENV: 'production',
  STATEHOUSE_VAULT_KEY: Buffer.alloc(32, 1).toString('base64'),
  PUBLIC_BASE_URL: 'https://statehouse.example',
};

describe('automations configuration: the sandbox never in production', () => {
  it('is on by default in development and off by default in production', () => {
    expect(loadConfig({}).automations).toEqual({
      sandbox: true,
      sandboxStepMs: 4000,
      connectorTimeoutMs: 30_000,
      maxAttempts: 4,
      retryBaseMs: 2000,
    });
    const production = loadConfig(PRODUCTION);
    expect(production.automations.sandbox).toBe(false);
    expect(() => checkStartMode(production, { demo: false }, () => {})).not.toThrow();
  });

  it('production refuses AUTOMATION_SANDBOX=on at start; development warns about it', () => {
    const config = loadConfig({ ...PRODUCTION, AUTOMATION_SANDBOX: 'on' });
    expect(() => checkStartMode(config, { demo: false }, () => {})).toThrow(ConfigError);
    expect(() => checkStartMode(config, { demo: false }, () => {})).toThrow(/AUTOMATION_SANDBOX is on/);
    let warning = '';
    checkStartMode(loadConfig({}), { demo: false }, (text) => void (warning = text));
    expect(warning).toContain('AUTOMATION_SANDBOX is on');
  });

  it('refuses bad values with a message naming the variable', () => {
    expect(() => loadConfig({ AUTOMATION_SANDBOX: 'maybe' })).toThrow(/AUTOMATION_SANDBOX must be on or off/);
    expect(() => loadConfig({ AUTOMATION_MAX_ATTEMPTS: '0' })).toThrow(/AUTOMATION_MAX_ATTEMPTS must be a whole number from 1 to 20/);
    expect(loadConfig({ AUTOMATION_SANDBOX: 'off', AUTOMATION_SANDBOX_STEP_MS: '0' }).automations).toMatchObject({
      sandbox: false,
      sandboxStepMs: 0,
    });
  });
});
