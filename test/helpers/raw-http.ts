import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses the first complete HTTP/1.1 response in `data` (Content-Length framed), or null if incomplete. */
function parseResponse(data: Buffer): { response: RawResponse; rest: Buffer } | null {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (data.length < end + 4 + length) return null;
  const body = data.subarray(end + 4, end + 4 + length).toString('utf8');
  return { response: { status: Number(statusLine.split(' ')[1]), headers, body }, rest: data.subarray(end + 4 + length) };
}

/** A client on a real TCP socket: writes whatever bytes a test wants (partial requests, oversized headers). */
export class RawClient {
  private buffer: Buffer = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => {});
  }

  static open(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve) => (this.socket.write(data, () => resolve()) ? undefined : undefined));
  }

  /** The next complete response; fails after `timeoutMs` (generous: the machine may be busy). */
  async response(timeoutMs = 60_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = parseResponse(this.buffer);
      if (parsed) {
        this.buffer = parsed.rest;
        return parsed.response;
      }
      if (this.closed) throw new Error(`connection closed without a complete response: ${this.buffer.toString('latin1').slice(0, 200)}`);
      if (Date.now() > deadline)
        throw new Error(`no complete response in time: ${JSON.stringify(this.buffer.toString('latin1').slice(0, 300))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close() {
    this.socket.destroy();
  }
}
