// The ownership lock of a data directory (see EmbeddedPostgres in embedded.ts): a Linux abstract-namespace socket
// named after the directory, released by the kernel when its owner dies; the owner answers on it with its port.
import { createHash } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';

export interface OwnerInfo {
  pid: number;
  port: number;
}

function lockAddress(dataDir: string): string {
  const digest = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 32);
  return `\0statehouse-${digest}`;
}

export interface Lock {
  publish(info: OwnerInfo): void;
  release(): void;
}

export async function acquireLock(dataDir: string): Promise<Lock | null> {
  let info: OwnerInfo | null = null;
  const server = net.createServer((socket) => {
    socket.end(info ? JSON.stringify(info) : '');
  });
  const bound = await new Promise<boolean>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    server.listen(lockAddress(dataDir), () => resolve(true));
  });
  if (!bound) return null;
  server.unref();
  return {
    publish: (next) => {
      info = next;
    },
    release: () => {
      server.close();
    },
  };
}

/** Asks the owning process which port its server listens on; waits while it is still starting. */
export async function askOwner(dataDir: string): Promise<OwnerInfo | null> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const reply = await new Promise<string | null>((resolve) => {
      const socket = net.connect(lockAddress(dataDir));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', () => resolve(null));
    });
    if (reply === null) return null;
    if (reply) return JSON.parse(reply) as OwnerInfo;
    await new Promise((r) => setTimeout(r, 200));
  }
  return null;
}
