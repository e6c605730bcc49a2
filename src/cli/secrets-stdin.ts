import { UsageError } from './output.js';

/** Login secrets come from stdin (a pipe or a heredoc), never from argv, where `ps` and shell history would see them. */
export async function readSecretsFromStdin(): Promise<unknown> {
  if (process.stdin.isTTY)
    throw new UsageError('logins create reads the secrets from stdin as JSON, e.g. statehouse logins create … < secrets.json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new UsageError('the secrets on stdin exceed 64 KiB');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    // The input is not echoed: it may be a password.
    throw new UsageError('the secrets on stdin are not valid JSON; expected {"username": "…", "password": "…"}');
  }
}
