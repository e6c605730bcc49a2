// What other modules may use of hosted sessions: the service they are given, the link and page types, and the
// hosted pages' shared request helpers (the session hook, the page sender, form and cookie parsing).
import type { BrowserSessionRow, HostedPurpose, HostedScope } from '../../db/schema.js';
import type { PageBrand } from '../../pages/html.js';

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

export {
  callbackTarget,
  EXPIRED_MESSAGE,
  formOf,
  hostedOf,
  hostedPageErrors,
  isSameOrigin,
  parseCookies,
  requireHostedSession,
  sendPage,
} from './hosted-pages.http.js';
