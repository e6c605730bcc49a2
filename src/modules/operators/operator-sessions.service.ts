import { NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { hashSecret, newSecret } from '../../lib/secrets.js';
import { csrfMatches, csrfTokenFor, MAX_SESSION_TOKEN as MAX_TOKEN } from '../../http/page-sessions.js';
import type { OperatorSessionsRepository } from './operator-sessions.repository.js';
import type { AuditService } from '../audit/contract.js';
import { OPERATOR_LINK_PATH } from './contract.js';
import type { OperatorPrincipal, OperatorsService } from './operators.service.js';

/** How long a back-office session lives: signed out after this much inactivity, and at the latest after `absoluteHours`. */
export const OPERATOR_SESSION_LIMITS = { idleMinutes: 30, absoluteHours: 12, linkMinutes: 10 } as const;
/** Where the one-time sign-in links of `statehouse operators login` point; the token segment is redacted from logs (app.ts). */
export { OPERATOR_LINK_PATH } from './contract.js';

/** last_seen_at is written at most this often: a page view is not worth a write every time. */
const TOUCH_EVERY_MS = 60_000;

export interface OperatorPageContext {
  operator: OperatorPrincipal;
  sessionId: string;
  csrf: string;
}

export type OperatorPageAccess = { state: 'ok'; context: OperatorPageContext } | { state: 'ended' } | { state: 'forbidden' };

export interface OpenedSession {
  cookieToken: string;
  operator: OperatorPrincipal;
  maxAgeSeconds: number;
}

export interface OperatorSessionsDeps {
  repository: OperatorSessionsRepository;
  operators: Pick<OperatorsService, 'authenticateKey'>;
  publicBaseUrl: string;
  /** The instance's CSRF key (the hosted pages' key; the message is prefixed so the tokens never coincide). */
  csrfKey: () => Promise<Buffer>;
  now: () => Date;
  /** Sign-ins and sign-outs are operator actions too. */
  audit: Pick<AuditService, 'recordCommitted'>;
}

/**
 * The back office's sign-in: an operator key (typed into the sign-in form) or a one-time link (printed by
 * the CLI) is exchanged for a browser session, a random token in an HttpOnly cookie stored only as its hash.
 * Every page request names that session; every form post also carries its CSRF token.
 */
export function createOperatorSessionsService(deps: OperatorSessionsDeps) {
  const { repository } = deps;
  const csrfFor = async (sessionId: string) => csrfTokenFor(await deps.csrfKey(), 'operator-session', sessionId);

  async function open(operator: OperatorPrincipal, via: 'key' | 'link'): Promise<OpenedSession> {
    const cookieToken = newSecret('');
    const now = deps.now();
    const maxAgeSeconds = OPERATOR_SESSION_LIMITS.absoluteHours * 3600;
    const id = newId('ops');
    await repository.insertSession({
      id,
      token_hash: hashSecret(cookieToken),
      operator_key_id: operator.keyId,
      expires_at: new Date(now.getTime() + maxAgeSeconds * 1000),
      now,
    });
    await deps.audit.recordCommitted({
      operator,
      action: 'session.sign_in',
      subjectType: 'operator_session',
      subjectId: id,
      legalEntityId: null,
      details: { via },
    });
    return { cookieToken, operator, maxAgeSeconds };
  }

  return {
    /** The sign-in form: a live operator key opens a session (401 otherwise, the same for every failure). */
    signIn: async (key: string | undefined): Promise<OpenedSession> => open(await deps.operators.authenticateKey(key), 'key'),

    /** `statehouse operators login`: a link that signs a browser in once, within `linkMinutes`. By key id or name. */
    async issueLink(keyIdOrName: string): Promise<{ url: string; expires_at: string; operator: OperatorPrincipal }> {
      const keys = await repository.findLiveKeys(keyIdOrName);
      const key = keys.find((k) => k.id === keyIdOrName) ?? (keys.length === 1 ? keys[0] : undefined);
      if (!key) {
        throw new NotFoundError(
          keys.length > 1
            ? `${keys.length} live operator keys are named '${keyIdOrName}': use the key id (statehouse operators keys list)`
            : `No live operator key '${keyIdOrName}' (statehouse operators keys list)`,
        );
      }
      const token = newSecret('');
      const now = deps.now();
      const expiresAt = new Date(now.getTime() + OPERATOR_SESSION_LIMITS.linkMinutes * 60_000);
      await repository.insertLink({ id: newId('opl'), token_hash: hashSecret(token), operator_key_id: key.id, expires_at: expiresAt, now });
      return {
        url: `${deps.publicBaseUrl}${OPERATOR_LINK_PATH}${token}`,
        expires_at: expiresAt.toISOString(),
        operator: { keyId: key.id, name: key.name },
      };
    },

    /** Whom a sign-in link would sign in (null when it cannot be used), without using it up: mail scanners open links too. */
    async previewLink(token: string): Promise<{ operatorName: string } | null> {
      if (token.length > MAX_TOKEN) return null;
      const link = await repository.findUsableLink(hashSecret(token), deps.now());
      return link ? { operatorName: link.operator_name } : null;
    },

    /** Uses up a sign-in link (exactly one concurrent caller wins) and opens a session; null when it cannot be used. */
    async exchangeLink(token: string): Promise<OpenedSession | null> {
      if (token.length > MAX_TOKEN) return null;
      const link = await repository.consumeLink(hashSecret(token), deps.now());
      if (!link) return null;
      const [key] = await repository.findLiveKeys(link.operator_key_id);
      return key ? open({ keyId: key.id, name: key.name }, 'link') : null;
    },

    /**
     * A back-office request: a live session ('ended' otherwise: unknown, expired, idle too long, or its key
     * revoked), and for a form post a same-origin request carrying the session's CSRF token ('forbidden' otherwise).
     */
    async check(request: { cookieToken: string | undefined; post?: { sameOrigin: boolean; csrf: unknown } }): Promise<OperatorPageAccess> {
      if (!request.cookieToken || request.cookieToken.length > MAX_TOKEN) return { state: 'ended' };
      const session = await repository.findSession(hashSecret(request.cookieToken));
      const now = deps.now().getTime();
      if (!session || session.expires_at.getTime() <= now) return { state: 'ended' };
      if (now - session.last_seen_at.getTime() > OPERATOR_SESSION_LIMITS.idleMinutes * 60_000) {
        await repository.deleteSession(session.id);
        return { state: 'ended' };
      }
      const csrf = await csrfFor(session.id);
      if (request.post) {
        if (!request.post.sameOrigin || !csrfMatches(request.post.csrf, csrf)) return { state: 'forbidden' };
      }
      if (now - session.last_seen_at.getTime() > TOUCH_EVERY_MS) await repository.touchSession(session.id, new Date(now));
      return {
        state: 'ok',
        context: { operator: { keyId: session.operator_key_id, name: session.operator_name }, sessionId: session.id, csrf },
      };
    },

    async signOut(cookieToken: string | undefined): Promise<void> {
      if (!cookieToken || cookieToken.length > MAX_TOKEN) return;
      const session = await repository.findSession(hashSecret(cookieToken));
      if (!session) return;
      await repository.deleteSession(session.id);
      await deps.audit.recordCommitted({
        operator: { keyId: session.operator_key_id, name: session.operator_name },
        action: 'session.sign_out',
        subjectType: 'operator_session',
        subjectId: session.id,
        legalEntityId: null,
      });
    },
  };
}

export type OperatorSessionsService = ReturnType<typeof createOperatorSessionsService>;
