/** A command used the wrong way: printed with a hint to --help, exit code 2. */
export class UsageError extends Error {}

/** Command output: JSON for scripts (`--json`), else a line for people. */
export function print(json: boolean, data: unknown, text: string) {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`);
}
