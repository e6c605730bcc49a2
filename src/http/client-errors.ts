import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { generateRequestId, REQUEST_ID_HEADER } from './request-id.js';

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (headers too large, malformed request line,
 * header timeout): answered in the envelope, `{"detail": ...}`, like every other error, then the socket closes.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ detail: STATUS_CODES[status] });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `${REQUEST_ID_HEADER}: ${generateRequestId()}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
