import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/** A request slower than this is logged at warn, whatever its status. */
export const SLOW_REQUEST_MS = 1000;

/**
 * Where log lines go: human-readable (pino-pretty, in this process: no worker thread) when
 * LOG_FORMAT=pretty, or by default when stdout is a terminal; otherwise pino's JSON lines.
 * pino-pretty is only loaded when used.
 */
export async function logDestination(
  config: Config,
  stream?: { write(line: string): void },
): Promise<{ stream?: { write(line: string): void } }> {
  if (stream) return { stream };
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
  if (!pretty) return {};
  const { default: pinoPretty } = await import('pino-pretty');
  return {
    stream: pinoPretty({
      colorize: process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      singleLine: true,
      sync: true,
    }),
  };
}

/**
 * One line per request at debug; at info and above only what needs a look: server errors and
 * slow requests (warn). Fastify's own per-request lines (two per request, at info) would bury a
 * running server's start banner. Unhandled errors are logged with their stack by the error handler.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = reply.elapsedTime;
    const fields = { req: request, res: reply, responseTime, ...(error && { err: error }) };
    if (error || reply.statusCode >= 500) request.log.warn(fields, 'request failed');
    else if (responseTime >= SLOW_REQUEST_MS) request.log.warn(fields, 'slow request');
    else request.log.debug(fields, 'request completed');
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'route not found');
  }
}
