// What other modules may use of hosted sessions: the service they are given, the link and page types, and the hosted
// pages' shared hook (requireHostedSession) with their error pages. Page HTTP helpers (sendPage, formOf) are http/pages.ts.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import type { BrowserSessionRow, HostedPurpose, HostedScope } from '../../db/schema.js';
import type { PageErrors } from '../../http/error-handler.js';
import { formOf, isSameOrigin, parseCookies, sendPage } from '../../http/pages.js';
import { renderMessagePage } from '../../pages/common-pages.js';
import type { PageBrand } from '../../pages/html.js';

declare module 'fastify' {
  interface FastifyRequest {
    hosted: HostedContext | null;
  }
}

export type SessionPurpose = HostedPurpose;

/** Path of every hosted-session link; the token segment is redacted from logs (see app.ts). */
export const HOSTED_SESSION_PATH = '/hosted/s/';
/** How long a browser stays signed in to a hosted page after opening its link. */
export const BROWSER_SESSION_MINUTES = 60;
export const SESSION_COOKIE = 'statehouse_session';

export interface IssuedSession {
  id: string;
  url: string;
  created_at: string;
  expires_at: string;
}

/** What the session operations answer (POST /tasks/sessions, /v2/documents/manage/session, …). */
export type SessionLink = Pick<IssuedSession, 'url' | 'created_at' | 'expires_at'>;

export type Exchange = { state: 'ok'; cookieToken: string; session: BrowserSessionRow } | { state: 'used' | 'expired' | 'unknown' };

/** What the confirmation page of an unused link shows, without using it up. */
export type LinkPreview =
  | { state: 'ok'; purpose: HostedPurpose; platformName: string; businessName: string; brand: PageBrand | null }
  | { state: 'used' | 'expired' | 'unknown' };

/** What every hosted page knows about its visitor. */
export interface HostedContext {
  session: BrowserSessionRow;
  csrf: string;
  /** The platform's display name when it set one (platform branding), else its name. */
  platformName: string;
  businessName: string;
  /** The platform's logo and accent for the layout; null for the default look. */
  brand: PageBrand | null;
  /** The entity's scope, as an access token would give it. */
  scope: { platformId: string; legalEntityId: string };
}

/** A page request as the session check sees it: the cookie, and for a form post its origin verdict and CSRF field. */
export interface PageRequest {
  cookieToken: string | undefined;
  purposes: readonly HostedPurpose[];
  post?: { sameOrigin: boolean; csrf: unknown };
}

export type PageAccess = { state: 'ok'; context: HostedContext } | { state: 'ended' } | { state: 'forbidden' };

/** The callback-origin rule of the platforms module (callback-origins.ts), as the issuing of a link needs it. */
export interface CallbackOriginCheck {
  check(platformId: string, callbackUrl: string | null | undefined, field: string): Promise<void>;
}

/** Hosted-session links and the browser sessions behind them (implemented by createHostedSessionsService). */
export interface HostedSessionsService {
  /** A link for one purpose and entity, valid for `ttlSeconds`. */
  issue(input: {
    purpose: SessionPurpose;
    legalEntityId: string;
    callbackUrl: string | null;
    ttlSeconds: number;
    scope?: HostedScope;
    /** The caller's transaction: the link commits with the change that needs it (a signup). */
    within?: Db;
  }): Promise<IssuedSession>;
  /**
   * The session operations' one pattern: the platform's callback origins must allow the callback URL
   * (a 422 on `callbackField`, default `callback_url`, otherwise), then a link is issued for the configured time.
   * `beforeIssue` is work the operation does only for an allowed callback, before the link exists.
   */
  issueForCallback(input: {
    platformId: string;
    legalEntityId: string;
    purpose: SessionPurpose;
    callbackUrl: string | null | undefined;
    scope?: HostedScope;
    callbackField?: string;
    beforeIssue?: () => Promise<unknown>;
  }): Promise<SessionLink>;
  /** What a link opens, read without using it up (the confirmation page). */
  preview(token: string): Promise<LinkPreview>;
  /** Uses up a link (exactly one concurrent caller wins) and opens a browser session for it. */
  exchange(token: string): Promise<Exchange>;
  /** A hosted page request: its live session of one of the purposes, and for a form post its origin and CSRF token. */
  check(request: PageRequest): Promise<PageAccess>;
  /** A page's work is done (signup completed, payroll connected, …): its browser session ends. */
  endBrowserSession(session: Pick<BrowserSessionRow, 'id' | 'legal_entity_id'>): Promise<void>;
  /** A platform's logo, by the digest in its URL. */
  logo(sha256: string): Promise<{ logo: Buffer; logo_content_type: string } | undefined>;
  /** The most recent callback a platform gave for this entity's signup, to reuse in a fresh link. */
  lastCallbackUrl(legalEntityId: string): Promise<string | null>;
}

const ERROR_PAGES: Record<number, { title: string; body: string }> = {
  413: { title: 'That was too large', body: 'Go back, shorten what you entered and try again.' },
  429: { title: 'Too many requests', body: 'Wait a minute, then try again.' },
  503: { title: 'Please try again in a moment', body: 'The service is busy right now.' },
};

/** Errors of the hosted pages (a bad filter, a body over the limit, …) are pages too: a person reads them. */
export const hostedPageErrors: PageErrors = {
  matches: (request) => (request.routeOptions.url ?? '').startsWith('/hosted/'),
  send: (reply, status, headers) => {
    const page =
      ERROR_PAGES[status] ??
      (status < 500
        ? { title: 'This address is not valid', body: 'Something in the address or the form could not be read. Go back and try again.' }
        : { title: 'Something went wrong', body: 'Please try again later.' });
    return sendPage(reply.headers(headers), renderMessagePage(page), { status });
  },
};

export const EXPIRED_MESSAGE = {
  title: 'This link has expired',
  body: 'Links to this page work once and for a limited time. Ask your platform for a new one.',
};

/**
 * A preHandler for hosted pages: a live browser session of one of these purposes, and for every POST a
 * valid CSRF token and (when the browser sends one) a same-origin Origin header (HostedSessionsService.check).
 */
export function requireHostedSession(
  deps: { sessions: Pick<HostedSessionsService, 'check'>; publicOrigin: string },
  purposes: HostedPurpose[],
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const access = await deps.sessions.check({
      cookieToken: parseCookies(request.headers.cookie)[SESSION_COOKIE],
      purposes,
      ...(request.method === 'POST' && { post: { sameOrigin: isSameOrigin(request, deps.publicOrigin), csrf: formOf(request)._csrf } }),
    });
    if (access.state === 'ended')
      return sendPage(reply, renderMessagePage({ ...EXPIRED_MESSAGE, title: 'Your session has ended' }), { status: 401 });
    if (access.state === 'forbidden')
      return sendPage(reply, renderMessagePage({ title: 'This form has expired', body: 'Reload the page and try again.' }), {
        status: 403,
      });
    request.hosted = access.context;
  };
}

export const hostedOf = (request: FastifyRequest) => request.hosted as HostedContext;
