import path from 'node:path';
import { ConfigError, type Config } from './config.js';
import { VAULT_KEY_FILE } from './crypto/vault.js';

export interface StartOptions {
  /** `serve --demo` (what `npm start` runs). */
  demo: boolean;
}

/**
 * What production refuses, one message per problem. The same list is the development warning: what this
 * setup gets away with now and would not in production. (Callback origins are enforced per request.)
 */
export function productionProblems(config: Config, options: StartOptions): string[] {
  const problems: string[] = [];
  if (config.vaultKeys === null) {
    problems.push(
      `STATEHOUSE_VAULT_KEY is not set: the vault key would be ${path.join(config.dataDir, VAULT_KEY_FILE)}, beside the data it protects ` +
        "(set it from a secret store: base64 of 32 bytes, e.g. from 'openssl rand -base64 32')",
    );
  }
  if (!config.publicBaseUrl.startsWith('https://')) {
    problems.push(`PUBLIC_BASE_URL is not https (got '${config.publicBaseUrl}'): hosted pages carry session cookies and credentials`);
  }
  if (config.automations.sandbox)
    problems.push(
      'AUTOMATION_SANDBOX is on: the sandbox agency would "complete" filings with made-up account numbers (set AUTOMATION_SANDBOX=off)',
    );
  if (config.webhooks.allowPrivate) {
    problems.push(
      'STATEHOUSE_WEBHOOKS_ALLOW_PRIVATE is on: any platform could point a webhook at this network (loopback, private and link-local addresses, cloud metadata); unset it',
    );
  }
  if (options.demo)
    problems.push("--demo creates a demo platform with a printed API key (npm start runs 'serve --demo'): start with 'statehouse serve'");
  return problems;
}

/** The block printed at a development start: loud, so nobody mistakes it for a production setup. */
export function developmentWarning(config: Config, options: StartOptions): string {
  const refusals = [
    ...productionProblems(config, options),
    "callback URLs of platforms with no registered callback origin (now any http(s) URL is accepted; register origins with 'statehouse platforms callbacks add <platform_id> <origin>')",
  ];
  const rule = '='.repeat(78);
  return [
    rule,
    'WARNING: Statehouse is running in DEVELOPMENT mode. Do not expose it to real users.',
    'With STATEHOUSE_ENV=production (or NODE_ENV=production) it would refuse:',
    ...refusals.map((r) => `  - ${r}`),
    ...(config.publicBaseUrl.startsWith('https://') ? [] : ['Cookies are not marked Secure (production always marks them).']),
    rule,
    '',
  ].join('\n');
}

/** Before `serve` opens anything: production refuses unsafe setups (a ConfigError), development warns. */
export function checkStartMode(config: Config, options: StartOptions, warn: (text: string) => void): void {
  if (config.environment === 'production') {
    const problems = productionProblems(config, options);
    if (problems.length > 0) throw new ConfigError(problems.map((p) => `production: ${p}`));
    return;
  }
  warn(developmentWarning(config, options));
}
