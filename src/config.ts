import path from 'node:path';

/** Typed configuration, parsed once from the environment at start. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /**
   * Where mail files (PDFs) are kept; null: `files/` in dataDir. Several hosts point it at one shared volume
   * (docs/scaling.md, "Mail files").
   */
  filesDir: string | null;
  /** External PostgreSQL; when absent Statehouse runs its own embedded server in dataDir. */
  databaseUrl: string | null;
  databasePoolSize: number;
  publicBaseUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** LOG_FORMAT: `pretty` (human-readable), `json`, or `auto`: pretty when stdout is a terminal. */
  logFormat: 'auto' | 'json' | 'pretty';
  accessTokenTtlSeconds: number;
  signupSessionTtlSeconds: number;
  /** Lifetime of the other hosted-page links (tasks, automation input). */
  hostedSessionTtlSeconds: number;
  bodyLimitBytes: number;
  /**
   * Keys of the login vault (AES-256-GCM), from STATEHOUSE_VAULT_KEY: the first encrypts, all decrypt.
   * null: use (and on first use create) `vault.key` in dataDir.
   */
  vaultKeys: Buffer[] | null;
  /** Largest mail PDF accepted for upload. */
  mailMaxBytes: number;
  /** Lifetime of a signed file link (`file_url` of a mail item). */
  fileUrlTtlSeconds: number;
  /**
   * AGENCY_CONNECTORS: catalog agency ids (e.g. `ca-edd`) whose own connector (src/modules/agencies/registry.ts) is
   * used, comma-separated; every other agency gets the sandbox (docs/architecture.md, "Agencies").
   */
  agencyConnectors: string[];
  /** Pause between the sandbox connector's steps (authenticating → registering → connected). */
  sandboxConnectorStepMs: number;
  /**
   * How often the job queue looks for expired jobs (those a killed process had started) and hands them back
   * (JOB_MAINTENANCE_INTERVAL_SECONDS; pg-boss's maintenance interval, one process per interval installation-wide).
   */
  jobMaintenanceIntervalSeconds: number;
  /** Automations (docs/automations.md): the sandbox agency (on by default outside production, refused in it), its pause between steps, each connector call's time limit, and the failed tries of a step before it goes to the operator queue, with the first retry's pause (doubled at each). */
  automations: { sandbox: boolean; sandboxStepMs: number; connectorTimeoutMs: number; maxAttempts: number; retryBaseMs: number };
  /** The event log (docs/events.md): days an event is kept before the prune job deletes it. */
  events: { retentionDays: number };
  /** Request logs (docs/request-logs.md): recorded at all (REQUEST_LOGS), the longest wait before a batch is written, and days a log is kept. */
  requestLogs: { enabled: boolean; flushIntervalMs: number; retentionDays: number };
  /**
   * Webhooks (docs/webhooks.md): private/loopback destinations allowed (development and tests only), each attempt's
   * time limit, the pause before the first retry (growing to cover at least 24 hours), the attempts of one delivery,
   * and when an endpoint that keeps failing is disabled (no success for this many hours and at least this many failures).
   */
  webhooks: {
    allowPrivate: boolean;
    attemptTimeoutMs: number;
    retryBaseMs: number;
    maxAttempts: number;
    disableAfterHours: number;
    disableAfterFailures: number;
  };
  /** Idempotency-Key (docs/idempotency.md): hours a key and its stored response are kept. */
  idempotency: { retentionHours: number };
  /** Bearer token that /metrics requires; null: /metrics answers loopback clients only (docs/observability.md). */
  metricsToken: string | null;
  /** STATEHOUSE_ENV, else NODE_ENV=production; production refuses unsafe setups (see src/production.ts). */
  environment: Environment;
  /** Requests per window, counted by every process together (synced each second; 0 = no limit); see docs/scaling.md. */
  rateLimits: RateLimits;
  /** Load shedding (503) when the event loop falls behind; 0 switches a check off. */
  /** maxHeapUsedShare: share of V8's heap limit above which requests are shed (0 = off). */
  loadShedding: { maxEventLoopDelayMs: number; maxEventLoopUtilization: number; maxHeapUsedShare: number };
}

export interface RateLimits {
  windowSeconds: number;
  /** Per API key or access token (keyed by a hash of the Authorization header). */
  perCredential: number;
  /** Per client address, for requests without an Authorization header. */
  perAddress: number;
  /** Token-issuing operations (`POST /accounts/auth`, `POST /v2/auth`), per credential or address. */
  authOperations: number;
  /** 401 answers per client address; past it the address gets 429 until the window ends. */
  failedAuth: number;
  /**
   * How long, from a key's first request in a window, its requests wait for the count other processes shared before
   * being decided on this process's own (src/http/shared-rate-limit-counters.ts).
   */
  sharedReadWaitMs: number;
}

export type Environment = 'development' | 'production';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const problems: string[] = [];
  const read = (name: string) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got '${raw}')`);
      return fallback;
    }
    return value;
  };

  const fraction = (name: string, fallback: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^(0|1|0?\.\d+)$/.test(raw) || value > 1) {
      problems.push(`${name} must be a number from 0 to 1 (got '${raw}')`);
      return fallback;
    }
    return value;
  };

  const host = read('HOST') ?? '127.0.0.1';
  const port = integer('PORT', 8080, 0, 65535);
  const dataDir = path.resolve(read('STATEHOUSE_DATA_DIR') ?? '.statehouse');
  const filesDirSetting = read('STATEHOUSE_FILES_DIR');

  const databaseUrl = read('DATABASE_URL') ?? null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push(`DATABASE_URL must be a postgres:// or postgresql:// URL (got '${redactUrl(databaseUrl)}')`);
  }

  const defaultBase = `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
  let publicBaseUrl = read('PUBLIC_BASE_URL') ?? defaultBase;
  try {
    const parsed = new URL(publicBaseUrl);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
    publicBaseUrl = publicBaseUrl.replace(/\/+$/, '');
  } catch {
    problems.push(`PUBLIC_BASE_URL must be an absolute http(s) URL (got '${publicBaseUrl}')`);
  }

  const logLevel = (read('LOG_LEVEL') ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got '${logLevel}')`);
  }

  const logFormat = (read('LOG_FORMAT') ?? 'auto') as Config['logFormat'];
  if (!['auto', 'json', 'pretty'].includes(logFormat)) problems.push(`LOG_FORMAT must be auto, json or pretty (got '${logFormat}')`);

  const vaultKeys = parseVaultKeys(read('STATEHOUSE_VAULT_KEY'), problems);
  const environment = parseEnvironment(read('STATEHOUSE_ENV'), read('NODE_ENV'), problems);

  const metricsToken = read('METRICS_TOKEN') ?? null;
  if (metricsToken !== null && !/^[\x21-\x7e]{16,256}$/.test(metricsToken)) {
    problems.push("METRICS_TOKEN must be 16 to 256 printable characters without spaces (e.g. from 'openssl rand -hex 32')");
  }

  const config: Config = {
    host,
    port,
    dataDir,
    filesDir: filesDirSetting ? path.resolve(filesDirSetting) : null,
    databaseUrl,
    databasePoolSize: integer('DATABASE_POOL_SIZE', 10, 1, 200),
    publicBaseUrl,
    logLevel,
    logFormat,
    // 10 minutes is the interface's documented lifetime; shorter values exist for tests.
    accessTokenTtlSeconds: integer('ACCESS_TOKEN_TTL_SECONDS', 600, 1, 86_400),
    signupSessionTtlSeconds: integer('SIGNUP_SESSION_TTL_SECONDS', 86_400, 60, 30 * 86_400),
    hostedSessionTtlSeconds: integer('HOSTED_SESSION_TTL_SECONDS', 3_600, 60, 7 * 86_400),
    bodyLimitBytes: integer('BODY_LIMIT_BYTES', 1_048_576, 1024, 64 * 1_048_576),
    vaultKeys,
    mailMaxBytes: integer('MAIL_MAX_BYTES', 20 * 1_048_576, 1024, 512 * 1_048_576),
    fileUrlTtlSeconds: integer('FILE_URL_TTL_SECONDS', 900, 10, 7 * 86_400),
    agencyConnectors: parseAgencyIds(read('AGENCY_CONNECTORS'), problems),
    sandboxConnectorStepMs: integer('SANDBOX_CONNECTOR_STEP_MS', 1500, 0, 600_000),
    jobMaintenanceIntervalSeconds: integer('JOB_MAINTENANCE_INTERVAL_SECONDS', 120, 1, 3600),
    automations: {
      sandbox: onOff('AUTOMATION_SANDBOX', environment !== 'production', problems, read),
      sandboxStepMs: integer('AUTOMATION_SANDBOX_STEP_MS', 4000, 0, 600_000),
      connectorTimeoutMs: integer('AUTOMATION_CONNECTOR_TIMEOUT_MS', 30_000, 100, 600_000),
      maxAttempts: integer('AUTOMATION_MAX_ATTEMPTS', 4, 1, 20),
      retryBaseMs: integer('AUTOMATION_RETRY_BASE_MS', 2000, 0, 3_600_000),
    },
    events: { retentionDays: integer('EVENTS_RETENTION_DAYS', 30, 1, 3650) },
    requestLogs: {
      enabled: onOff('REQUEST_LOGS', true, problems, read),
      flushIntervalMs: integer('REQUEST_LOGS_FLUSH_MS', 1000, 10, 3_600_000),
      retentionDays: integer('REQUEST_LOGS_RETENTION_DAYS', 14, 1, 3650),
    },
    webhooks: {
      allowPrivate: onOff('STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE', false, problems, read),
      attemptTimeoutMs: integer('WEBHOOKS_ATTEMPT_TIMEOUT_MS', 10_000, 100, 120_000),
      retryBaseMs: integer('WEBHOOKS_RETRY_BASE_MS', 60_000, 0, 3_600_000),
      maxAttempts: integer('WEBHOOKS_MAX_ATTEMPTS', 12, 1, 50),
      disableAfterHours: integer('WEBHOOKS_DISABLE_AFTER_HOURS', 72, 0, 30 * 24),
      disableAfterFailures: integer('WEBHOOKS_DISABLE_AFTER_FAILURES', 20, 1, 100_000),
    },
    idempotency: { retentionHours: integer('IDEMPOTENCY_RETENTION_HOURS', 24, 1, 24 * 30) },
    metricsToken,
    environment,
    rateLimits: {
      windowSeconds: integer('RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400),
      perCredential: integer('RATE_LIMIT_PER_CREDENTIAL', 6000, 0, 10_000_000),
      perAddress: integer('RATE_LIMIT_PER_ADDRESS', 3000, 0, 10_000_000),
      authOperations: integer('RATE_LIMIT_AUTH_OPERATIONS', 600, 0, 10_000_000),
      failedAuth: integer('RATE_LIMIT_FAILED_AUTH', 200, 0, 10_000_000),
      sharedReadWaitMs: integer('RATE_LIMIT_SHARED_READ_WAIT_MS', 250, 0, 60_000),
    },
    loadShedding: {
      maxEventLoopDelayMs: integer('SHED_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
      maxEventLoopUtilization: fraction('SHED_EVENT_LOOP_UTILIZATION', 0),
      maxHeapUsedShare: fraction('SHED_HEAP_USED_SHARE', 0.85),
    },
    ...overrides,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** AGENCY_CONNECTORS: a comma-separated list of catalog agency ids (lower-case letters, digits, hyphens). */
function parseAgencyIds(raw: string | undefined, problems: string[]): string[] {
  const ids = (raw ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  const bad = ids.filter((id) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id));
  if (bad.length > 0)
    problems.push(`AGENCY_CONNECTORS must list catalog agency ids such as ca-edd, comma-separated (got '${bad.join("', '")}')`);
  return ids;
}

/** STATEHOUSE_VAULT_KEY: base64 of 32 bytes, or a comma-separated list of them (first = current). Never echoes a key. */
function parseVaultKeys(raw: string | undefined, problems: string[]): Buffer[] | null {
  if (raw === undefined) return null;
  const keys: Buffer[] = [];
  for (const [index, part] of raw
    .split(',')
    .map((p) => p.trim())
    .entries()) {
    const key = /^[A-Za-z0-9+/_-]+={0,2}$/.test(part) ? Buffer.from(part, 'base64') : null;
    if (!key || key.length !== 32) {
      problems.push(
        `STATEHOUSE_VAULT_KEY must be base64 of 32 bytes (e.g. from 'openssl rand -base64 32'), or a comma-separated list of such keys; key ${index + 1} is not`,
      );
      return null;
    }
    keys.push(key);
  }
  return keys;
}

/** A switch: on/off (also true/false, 1/0, yes/no); absent: the fallback. */
function onOff(name: string, fallback: boolean, problems: string[], read: (name: string) => string | undefined): boolean {
  const raw = read(name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  problems.push(`${name} must be on or off (got '${raw}')`);
  return fallback;
}

/** STATEHOUSE_ENV (development | production) wins; otherwise NODE_ENV=production means production. */
function parseEnvironment(statehouseEnv: string | undefined, nodeEnv: string | undefined, problems: string[]): Environment {
  if (statehouseEnv === undefined) return nodeEnv === 'production' ? 'production' : 'development';
  if (statehouseEnv === 'development' || statehouseEnv === 'production') return statehouseEnv;
  problems.push(`STATEHOUSE_ENV must be development or production (got '${statehouseEnv}')`);
  return 'development';
}

/** Hides the password of a connection URL so it can be printed. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@');
}
