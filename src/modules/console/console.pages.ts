import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendPage } from '../../http/pages.js';
import { InvalidInputError, InvalidInputsError } from '../../lib/errors.js';
import type { Raw } from '../../pages/html.js';
import { roleAllows, type ConsoleRole } from './contract.js';
import { consoleOf } from './console.http.js';
import { consoleLayout } from './console.views.js';

/** Renders a console page in its shell for the signed-in user: their platform's name, their role, the CSRF token. */
export function pageRenderer(platformName: (platformId: string) => Promise<string>) {
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    page: { title: string; current: string; body: (can: (role: ConsoleRole) => boolean, csrf: string) => Raw; status?: number },
  ) => {
    const context = consoleOf(request);
    const can = (role: ConsoleRole) => roleAllows(context.role, role);
    return sendPage(
      reply,
      consoleLayout({
        user: { email: context.actor.email, role: context.role, platformName: await platformName(context.actor.platformId) },
        csrf: context.csrf,
        current: page.current,
        title: page.title,
        body: page.body(can, context.csrf),
      }),
      { status: page.status ?? 200 },
    );
  };
}

export type PageRenderer = ReturnType<typeof pageRenderer>;

/** The reason an input was refused (a service's InvalidInputError(s), or an Error saying why), or rethrows. */
export function refusalOf(error: unknown): string {
  if (error instanceof InvalidInputsError) return error.errors.map((e) => e.reason).join('; ');
  if (error instanceof InvalidInputError) return error.reason;
  if (error instanceof Error && error.constructor === Error) return error.message;
  throw error;
}

/** Notices shown after a post/redirect/get, by key. */
export const NOTICES: Record<string, string> = {
  revoked: 'The API key is revoked.',
  'endpoint-disabled': 'The endpoint is disabled.',
  'endpoint-enabled': 'The endpoint is enabled.',
  'endpoint-deleted': 'The endpoint is deleted.',
  'test-sent': 'A test event is on its way to the endpoint.',
  'origin-added': 'The callback origin is added.',
  'origin-removed': 'The callback origin is removed.',
  'brand-saved': 'The branding is saved.',
  'role-changed': 'The role is changed.',
  'user-removed': 'The user is removed.',
};

export const noticeOf = (query: unknown) => NOTICES[(query as { notice?: string }).notice ?? ''] ?? null;
