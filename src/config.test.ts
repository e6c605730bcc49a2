import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      databaseUrl: null,
      publicBaseUrl: 'http://127.0.0.1:8080',
      accessTokenTtlSeconds: 600,
    });
    expect(config.dataDir).toBe(path.resolve('.statehouse'));
  });

  it('reads the environment', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db:5432/x',
      PUBLIC_BASE_URL: 'https://sh.example.com/',
      STATEHOUSE_DATA_DIR: '/var/lib/statehouse',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u:p@db:5432/x',
      publicBaseUrl: 'https://sh.example.com',
      dataDir: '/var/lib/statehouse',
    });
  });

  it('reads the rate limits and load-shedding thresholds (0 = off) and refuses bad ones', () => {
    expect(loadConfig({}).rateLimits).toEqual({
      windowSeconds: 60,
      perCredential: 6000,
      perAddress: 3000,
      authOperations: 600,
      failedAuth: 200,
      sharedReadWaitMs: 250,
    });
    expect(loadConfig({}).loadShedding).toEqual({ maxEventLoopDelayMs: 1000, maxEventLoopUtilization: 0, maxHeapUsedShare: 0.85 });
    const config = loadConfig({
      RATE_LIMIT_FAILED_AUTH: '0',
      RATE_LIMIT_WINDOW_SECONDS: '10',
      RATE_LIMIT_SHARED_READ_WAIT_MS: '0',
      SHED_EVENT_LOOP_UTILIZATION: '0.95',
      SHED_EVENT_LOOP_DELAY_MS: '0',
      SHED_HEAP_USED_SHARE: '0',
    });
    expect([config.rateLimits.failedAuth, config.rateLimits.windowSeconds, config.rateLimits.sharedReadWaitMs]).toEqual([0, 10, 0]);
    expect(() => loadConfig({ RATE_LIMIT_SHARED_READ_WAIT_MS: '60001' })).toThrow(
      /RATE_LIMIT_SHARED_READ_WAIT_MS must be a whole number from 0 to 60000/,
    );
    expect(config.loadShedding).toEqual({ maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0.95, maxHeapUsedShare: 0 });
    expect(() => loadConfig({ SHED_EVENT_LOOP_UTILIZATION: '1.5', RATE_LIMIT_PER_ADDRESS: '-1' })).toThrow(
      /SHED_EVENT_LOOP_UTILIZATION must be a number from 0 to 1 \(got '1.5'\)[\s\S]*RATE_LIMIT_PER_ADDRESS|RATE_LIMIT_PER_ADDRESS[\s\S]*SHED_EVENT_LOOP_UTILIZATION/,
    );
  });

  it('reads how often expired jobs are handed back (JOB_MAINTENANCE_INTERVAL_SECONDS: 1 to 3600, default 120)', () => {
    expect(loadConfig({}).jobMaintenanceIntervalSeconds).toBe(120);
    expect(loadConfig({ JOB_MAINTENANCE_INTERVAL_SECONDS: '5' }).jobMaintenanceIntervalSeconds).toBe(5);
    expect(() => loadConfig({ JOB_MAINTENANCE_INTERVAL_SECONDS: '0' })).toThrow(
      /JOB_MAINTENANCE_INTERVAL_SECONDS must be a whole number from 1 to 3600 \(got '0'\)/,
    );
  });

  it('reports every bad value at once, without leaking a password', () => {
    try {
      loadConfig({ PORT: '70000', DATABASE_URL: 'mysql://root:hunter2@db/x', LOG_LEVEL: 'loud', ACCESS_TOKEN_TTL_SECONDS: '-1' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const { problems, message } = error as ConfigError;
      expect(problems).toHaveLength(4);
      expect(message).toContain("PORT must be a whole number from 0 to 65535 (got '70000')");
      expect(message).toContain('LOG_LEVEL must be one of');
      expect(message).not.toContain('hunter2');
    }
  });

  it('takes METRICS_TOKEN only when it is long enough to be a secret, never echoing it', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: ' 0123456789abcdef0123 ' }).metricsToken).toBe('0123456789abcdef0123');
    for (const bad of ['short-secret', 'has a space in the middle', 'x'.repeat(257)]) {
      try {
        loadConfig({ METRICS_TOKEN: bad });
        expect.unreachable();
      } catch (error) {
        expect((error as ConfigError).problems).toEqual([expect.stringContaining('METRICS_TOKEN must be 16 to 256 printable characters')]);
        expect((error as ConfigError).message).not.toContain(bad);
      }
    }
  });
});
