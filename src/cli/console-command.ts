import type { Config } from '../config.js';
import { createAuditModule } from '../modules/audit/index.js';
import { isConsoleRole, type ConsoleRole } from '../modules/console/contract.js';
import { createConsoleModule } from '../modules/console/index.js';
import { createPlatformsModule } from '../modules/platforms/index.js';
import { withDatabase } from './command-services.js';
import { print, UsageError } from './output.js';

const USAGE = 'Usage: statehouse console invite --platform <platform_id> --email <address> [--role admin|developer|read_only] [--json]';

/** `console invite`: a one-time link with which a platform's first admin (or anyone) chooses a password for the console. */
export async function consoleCommand(
  config: Config,
  sub: string | undefined,
  options: { platform?: string; email?: string; role?: string },
  json: boolean,
) {
  if (sub !== 'invite' || !options.platform || !options.email) throw new UsageError(USAGE);
  const role: ConsoleRole | undefined = options.role === undefined ? 'admin' : isConsoleRole(options.role) ? options.role : undefined;
  if (!role) throw new UsageError(`--role takes admin, developer or read_only\n${USAGE}`);
  await withDatabase(config, async (database) => {
    const { platforms } = createPlatformsModule({ db: database.db });
    const consoleModule = createConsoleModule({
      db: database.db,
      publicBaseUrl: config.publicBaseUrl,
      audit: createAuditModule({ db: database.db }).audit,
      platformExists: async (id) => (await platforms.find(id)) !== undefined,
    });
    const invite = await consoleModule.users.invite(options.platform!, { email: options.email!, role }, null);
    if (json) return print(true, invite, '');
    process.stderr.write(`console invitation for ${invite.email} (${invite.role}); it works once, until ${invite.expires_at}:\n`);
    process.stdout.write(`${invite.url}\n`);
  });
}
