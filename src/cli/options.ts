import { parseArgs } from 'node:util';

/** The command line: `statehouse <command> [sub] [args…] [--options]` (usage.ts lists them). */
export function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      demo: { type: 'boolean', default: false },
      region: { type: 'string' },
      entity: { type: 'string' },
      platform: { type: 'string' },
      agency: { type: 'string' },
      name: { type: 'string' },
      data: { type: 'string', multiple: true },
      url: { type: 'string' },
      account: { type: 'string' },
      supported: { type: 'boolean', default: false },
      file: { type: 'string' },
      type: { type: 'string' },
      sender: { type: 'string' },
      subject: { type: 'string' },
      received: { type: 'string' },
      'key-id': { type: 'string' },
      'legal-entity': { type: 'string' },
      limit: { type: 'string' },
      before: { type: 'string' },
      action: { type: 'string' },
      'event-type': { type: 'string', multiple: true },
      reason: { type: 'string' },
      description: { type: 'string' },
      accent: { type: 'string' },
      logo: { type: 'string' },
      clear: { type: 'string', multiple: true },
      id: { type: 'string' },
      title: { type: 'string' },
      notes: { type: 'string' },
      date: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      format: { type: 'string' },
      out: { type: 'string' },
      against: { type: 'string' },
      catalog: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

export type CommandOptions = ReturnType<typeof parseCommandLine>['values'];
