import { createHmac } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { BrowserSessionRow, HostedScope } from '../../db/schema.js';
import { ID_PREFIX, newId } from '../../lib/ids.js';
import { hashSecret, newSecret, safeEqual } from '../../lib/secrets.js';
import { pageBrand } from '../../pages/brand.js';
import {
  BROWSER_SESSION_MINUTES,
  HOSTED_SESSION_PATH,
  type CallbackOriginCheck,
  type Exchange,
  type HostedSessionsService,
  type IssuedSession,
  type LinkPreview,
  type PageAccess,
  type PageRequest,
  type SessionLink,
  type SessionPurpose,
} from './contract.js';
import type { HostedSessionsRepository } from './hosted-sessions.repository.js';

export interface HostedSessionsServiceDeps {
  repository: HostedSessionsRepository;
  /** The repository over a caller's transaction (`issue` with `within`). */
  repositoryFor?: (db: Db) => HostedSessionsRepository;
  /** Runs `work` in one transaction, over a repository bound to it. */
  transaction: <T>(work: (repository: HostedSessionsRepository) => Promise<T>) => Promise<T>;
  publicBaseUrl: string;
  now?: () => Date;
  /** The CSRF key (an instance key, sealed at rest); only the hosted pages' forms need it. */
  csrfKey?: () => Promise<Buffer>;
  callbackOrigins: CallbackOriginCheck;
  /** How long a link issued by issueForCallback may wait to be opened (HOSTED_SESSION_TTL_SECONDS). */
  linkTtlSeconds: number;
}

const MAX_COOKIE_TOKEN = 128;
const MAX_CSRF_TOKEN = 100;
const MAX_LINK_TOKEN = 128;

/**
 * Hosted-page access in two steps. A link handed to the end user carries a 256-bit single-use token
 * (stored only as its SHA-256 hash) valid until `expires_at` (issue). Opening it exchanges it for a browser
 * session: a second random token in an HttpOnly cookie, scoped to that legal entity and purpose (exchange).
 * Every page request then names that session, and every form post carries its CSRF token (check).
 */
export function createHostedSessionsService(deps: HostedSessionsServiceDeps): HostedSessionsService {
  const now = deps.now ?? (() => new Date());
  const csrfKey = deps.csrfKey ?? (() => Promise.reject(new Error('no CSRF key given to this hosted-sessions service')));
  const csrfFor = async (sessionId: string) =>
    createHmac('sha256', await csrfKey())
      .update(sessionId)
      .digest('base64url');

  async function verifyCsrf(sessionId: string, token: unknown): Promise<boolean> {
    if (typeof token !== 'string' || token.length > MAX_CSRF_TOKEN) return false;
    // Compared as text: decoding base64url first would accept look-alikes (padding, spare bits).
    return safeEqual(Buffer.from(token), Buffer.from(await csrfFor(sessionId)));
  }

  /** The browser session a cookie names, if it has not expired. */
  async function browserSession(cookieToken: string | undefined): Promise<BrowserSessionRow | null> {
    if (!cookieToken || cookieToken.length > MAX_COOKIE_TOKEN) return null;
    const session = await deps.repository.findBrowserSession(hashSecret(cookieToken));
    return session && session.expires_at.getTime() > now().getTime() ? session : null;
  }

  async function issue(input: {
    purpose: SessionPurpose;
    legalEntityId: string;
    callbackUrl: string | null;
    ttlSeconds: number;
    scope?: HostedScope;
    /** The caller's transaction: the link commits with the caller's change or not at all (signup). */
    within?: Db;
  }): Promise<IssuedSession> {
    const token = newSecret('');
    const createdAt = now();
    const expiresAt = new Date(createdAt.getTime() + input.ttlSeconds * 1000);
    const id = newId(ID_PREFIX.hostedSession);
    if (input.within && !deps.repositoryFor) throw new Error('issue within a transaction needs repositoryFor');
    const repository = input.within ? deps.repositoryFor!(input.within) : deps.repository;
    await repository.insertLink({
      id,
      purpose: input.purpose,
      scope: input.scope ?? {},
      legalEntityId: input.legalEntityId,
      tokenHash: hashSecret(token),
      callbackUrl: input.callbackUrl,
      createdAt,
      expiresAt,
    });
    return {
      id,
      url: `${deps.publicBaseUrl}${HOSTED_SESSION_PATH}${token}`,
      created_at: createdAt.toISOString(),
      expires_at: expiresAt.toISOString(),
    };
  }

  return {
    issue,

    /**
     * The session operations' one pattern: the platform's callback origins must allow the callback URL
     * (a 422 on `callbackField`, default `callback_url`, otherwise), then a link is issued for the configured time.
     * `beforeIssue` is work the operation does only for an allowed callback, before the link exists.
     */
    async issueForCallback(input: {
      platformId: string;
      legalEntityId: string;
      purpose: SessionPurpose;
      callbackUrl: string | null | undefined;
      scope?: HostedScope;
      callbackField?: string;
      beforeIssue?: () => Promise<unknown>;
    }): Promise<SessionLink> {
      await deps.callbackOrigins.check(input.platformId, input.callbackUrl, input.callbackField ?? 'callback_url');
      await input.beforeIssue?.();
      const { url, created_at, expires_at } = await issue({
        purpose: input.purpose,
        legalEntityId: input.legalEntityId,
        callbackUrl: input.callbackUrl ?? null,
        ttlSeconds: deps.linkTtlSeconds,
        ...(input.scope && { scope: input.scope }),
      });
      return { url, created_at, expires_at };
    },

    /**
     * What a link opens, read without using it up: e-mail security scanners open links before the person
     * does, so opening shows a confirmation page and only its button (exchange) spends the link.
     */
    async preview(token: string): Promise<LinkPreview> {
      if (token.length > MAX_LINK_TOKEN) return { state: 'unknown' };
      const link = await deps.repository.findLink(hashSecret(token));
      if (!link) return { state: 'unknown' };
      if (link.consumed_at) return { state: 'used' };
      if (link.expires_at.getTime() <= now().getTime()) return { state: 'expired' };
      const names = await deps.repository.pageNames(link.legal_entity_id);
      return {
        state: 'ok',
        purpose: link.purpose,
        platformName: names.platformName,
        businessName: names.businessName,
        brand: pageBrand(names.brand),
      };
    },

    /** Uses up a link (exactly one concurrent caller wins) and opens a browser session for it. */
    exchange: (token: string): Promise<Exchange> => {
      if (token.length > MAX_LINK_TOKEN) return Promise.resolve({ state: 'unknown' });
      const tokenHash = hashSecret(token);
      return deps.transaction(async (repository) => {
        const link = await repository.consumeLink(tokenHash, now());
        if (!link) {
          const known = await repository.findLinkUse(tokenHash);
          return { state: !known ? 'unknown' : known.consumed_at ? 'used' : 'expired' };
        }
        const cookieToken = newSecret('');
        const session = await repository.insertBrowserSession({
          id: newId('hbs'),
          tokenHash: hashSecret(cookieToken),
          link,
          expiresAt: new Date(now().getTime() + BROWSER_SESSION_MINUTES * 60_000),
        });
        return { state: 'ok', cookieToken, session };
      });
    },

    /**
     * A hosted page request: a live browser session of one of these purposes ('ended' otherwise), and for a
     * form post a same-origin request with the session's CSRF token ('forbidden' otherwise).
     */
    async check(request: PageRequest): Promise<PageAccess> {
      const session = await browserSession(request.cookieToken);
      if (!session || !request.purposes.includes(session.purpose)) return { state: 'ended' };
      if (request.post && !(request.post.sameOrigin && (await verifyCsrf(session.id, request.post.csrf)))) return { state: 'forbidden' };
      const names = await deps.repository.pageNames(session.legal_entity_id);
      return {
        state: 'ok',
        context: {
          session,
          csrf: await csrfFor(session.id),
          platformName: names.platformName,
          businessName: names.businessName,
          brand: pageBrand(names.brand),
          scope: { platformId: names.platformId, legalEntityId: session.legal_entity_id },
        },
      };
    },

    /** A page's work is done (signup completed, payroll connected, …): its browser session ends. */
    endBrowserSession: (session: Pick<BrowserSessionRow, 'id' | 'legal_entity_id'>) =>
      deps.repository.deleteBrowserSession(session.legal_entity_id, session.id),

    /** A platform's logo, by the digest in its URL. */
    logo: (sha256: string) => (/^[0-9a-f]{64}$/.test(sha256) ? deps.repository.findLogo(sha256) : Promise.resolve(undefined)),

    /** The most recent callback a platform gave for this entity's signup, to reuse in a fresh link. */
    lastCallbackUrl: (legalEntityId: string) => deps.repository.lastSignupCallbackUrl(legalEntityId),
  };
}
