import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { platformOf, type AuthHooks } from '../../http/auth.js';
import { RawBody } from '../../http/body-parsers.js';
import { nextPageHeaders, PAGE_HEADERS } from '../../http/paging.js';
import { errorResponses } from '../../http/schemas.js';
import { HttpError } from '../../lib/errors.js';
import { formatOf, IMPORT_CONTENT_TYPES } from './imports.input.js';
import {
  ImportParamsSchema,
  ImportRowsQuerySchema,
  ImportSchema,
  ImportWithRowsSchema,
  ListImportsQuerySchema,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
} from './imports.schemas.js';
import type { ImportsService } from './imports.service.js';

const tags = ['Imports'];
const security = [{ apiKey: [] }];

// Checked before the body is read: a file of another type is refused without buffering megabytes.
const requireImportType = async (request: FastifyRequest) => {
  if (!formatOf(request.headers['content-type']))
    throw new HttpError(415, `Send the file as the request body with Content-Type ${IMPORT_CONTENT_TYPES.join(', ')}`);
};

// The app-wide handler words 413s with the app-wide limit; this route has its own.
const tooLarge = (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
  if (error.statusCode === 413 && !(error instanceof HttpError))
    return reply
      .code(413)
      .type('application/json; charset=utf-8')
      .send(JSON.stringify({ detail: `The file is larger than the limit of ${MAX_IMPORT_BYTES} bytes` }));
  throw error;
};

export function importRoutes(deps: { imports: ImportsService; auth: AuthHooks }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    const { imports, auth } = deps;

    r.post(
      '/v2/legal_entities/imports',
      {
        onRequest: [auth.apiKey, requireImportType],
        bodyLimit: MAX_IMPORT_BYTES,
        errorHandler: tooLarge,
        schema: {
          operationId: 'createImportV2',
          tags,
          security,
          summary: 'Import a book of businesses (JSON lines or CSV)',
          description:
            'The body is the file itself: JSON lines (`application/x-ndjson` or `application/jsonl`), one business per line, or CSV ' +
            `(\`text/csv\`) with a header row (docs/imports.md). At most ${MAX_IMPORT_ROWS} rows and ${MAX_IMPORT_BYTES} bytes (413 above). ` +
            'Every row is checked up front; a bad row fails with its errors and the others go on. Answers 202 with the import; ' +
            'the work runs as a durable job: follow it with GET /v2/legal_entities/imports/{import_id}.',
          response: { 202: ImportSchema, ...errorResponses(401, 403, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const text = request.body instanceof RawBody ? request.body.text : '';
        const created = await imports.create(platformOf(request).platformId, formatOf(request.headers['content-type'])!, text);
        return reply.code(202).send(created);
      },
    );

    r.get(
      '/v2/legal_entities/imports',
      {
        onRequest: auth.apiKey,
        config: { inputAt: 'query' },
        schema: {
          operationId: 'listImportsV2',
          tags,
          security,
          summary: "The platform's imports, newest first",
          description: 'Page with `starting_after` (the last import id read): X-Next-Page and a Link rel="next" header when more follow.',
          querystring: ListImportsQuerySchema,
          response: { 200: Type.Array(ImportSchema), ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const limit = request.query.limit ?? 20;
        const page = await imports.list(platformOf(request).platformId, { limit, startingAfter: request.query.starting_after });
        reply.header(PAGE_HEADERS.size, String(limit));
        if (page.next) reply.headers(nextPageHeaders(request.url, { starting_after: page.next, limit: String(limit) }));
        return page.items;
      },
    );

    r.get(
      '/v2/legal_entities/imports/:import_id',
      {
        onRequest: auth.apiKey,
        config: { inputAt: 'query' },
        schema: {
          operationId: 'getImportV2',
          tags,
          security,
          summary: 'An import: its status, counts and a page of its rows',
          description:
            'Each row: `created` or `unchanged` with its legal entity, `failed` with its errors (the 422 item shape, loc ' +
            '`["row", n, field]`), or `pending`. Page the rows with `starting_after` (the last row number read) and `limit`; ' +
            'X-Next-Page and a Link rel="next" header when more rows follow. `status` filters the rows.',
          params: ImportParamsSchema,
          querystring: ImportRowsQuerySchema,
          response: { 200: ImportWithRowsSchema, ...errorResponses(401, 403, 404, 422) },
        },
      },
      async (request, reply) => {
        const { platformId } = platformOf(request);
        const q = request.query;
        const limit = q.limit ?? 100;
        const found = await imports.get(platformId, request.params.import_id);
        const page = await imports.rows(platformId, found.id, { limit, startingAfter: q.starting_after, status: q.status });
        reply.header(PAGE_HEADERS.size, String(limit));
        if (page.next !== null) reply.headers(nextPageHeaders(request.url, { starting_after: String(page.next), limit: String(limit) }));
        return { ...found, rows: page.items };
      },
    );
  };
}
