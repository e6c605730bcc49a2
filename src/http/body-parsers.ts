import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequestError, RequestValidationError } from '../lib/errors.js';
import { parseJsonBody } from './json-body.js';

/**
 * A body that was not JSON. FastAPI hands such bodies to validation as raw text
 * (which then fails with `model_attributes_type`); hosted pages read `form`.
 */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly text: string,
    readonly form: Record<string, string> | null,
  ) {}
}

function decodeJson(buffer: Buffer): unknown {
  // FastAPI treats an empty body as no body at all (`missing`), not as invalid JSON.
  if (buffer.length === 0) return undefined;
  const result = parseJsonBody(buffer);
  if (result.ok) return result.value;
  if (result.kind === 'undecodable') throw new BadRequestError('There was an error parsing the body');
  throw new RequestValidationError([
    { type: 'json_invalid', loc: ['body', result.pos], msg: 'JSON decode error', input: {}, ctx: { error: result.msg } },
  ]);
}

const MEDIA_TYPE = /^\s*[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+\s*(;.*)?$/;

/**
 * A content type that is not `type/subtype` is treated as text/plain, as Python's email parser
 * (and so FastAPI) does: the body then fails validation with a 422 instead of a 415.
 */
export function normaliseContentType(headers: Record<string, string | string[] | undefined>): void {
  const value = headers['content-type'];
  if (typeof value === 'string' && value.trim() !== '' && !MEDIA_TYPE.test(value)) headers['content-type'] = 'text/plain';
}

export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const json = (req: FastifyRequest, body: Buffer, done: (err: Error | null, value?: unknown) => void) => {
    // FastAPI routes before it reads a body: an unknown path or method is a 404/405, whatever the body.
    if (req.is404) return done(null, undefined);
    try {
      done(null, decodeJson(body));
    } catch (error) {
      done(error as Error);
    }
  };
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, json);
  app.addContentTypeParser(/^application\/[\w.+-]+\+json$/, { parseAs: 'buffer' }, json);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, text, done) => {
    const params = new URLSearchParams(text as string);
    const form: Record<string, string> = {};
    for (const [key, value] of params) form[key] = value;
    done(null, new RawBody(req.headers['content-type'] ?? '', text as string, form));
  });
  // Anything else, including a body without a content type (FastAPI parses that as JSON).
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
    const contentType = req.headers['content-type'];
    if (contentType === undefined || contentType.trim() === '') return json(req, body as Buffer, done);
    done(null, new RawBody(contentType, (body as Buffer).toString('utf8'), null));
  });
}
