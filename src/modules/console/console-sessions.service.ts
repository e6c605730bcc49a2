import { newId } from '../../lib/ids.js';
import { hashSecret, newSecret } from '../../lib/secrets.js';
import { csrfMatches, csrfTokenFor, MAX_SESSION_TOKEN } from '../../http/page-sessions.js';
import type { AuditService, ConsoleActor } from '../audit/contract.js';
import type { ConsoleRole } from './contract.js';
import { decoyHash, MAX_PASSWORD, verifyPassword } from './console-passwords.js';
import type { ConsoleRepository } from './console.repository.js';

/** A session ends after this much inactivity, and at the latest `absoluteHours` after sign-in (as the back office's). */
export const CONSOLE_SESSION_LIMITS = { idleMinutes: 30, absoluteHours: 12 } as const;
const TOUCH_EVERY_MS = 60_000;

export interface ConsolePageContext {
  actor: ConsoleActor;
  role: ConsoleRole;
  sessionId: string;
  csrf: string;
}

export type ConsolePageAccess = { state: 'ok'; context: ConsolePageContext } | { state: 'ended' } | { state: 'forbidden' };

export interface ConsoleSessionsDeps {
  repository: ConsoleRepository;
  csrfKey: () => Promise<Buffer>;
  now: () => Date;
  audit: Pick<AuditService, 'recordConsole'>;
}

/**
 * The console's sign-in: e-mail and password for a browser session (a random token in an HttpOnly cookie,
 * stored only as its hash), the back office's mechanism (http/page-sessions.ts) with the console's own tables.
 */
export function createConsoleSessionsService(deps: ConsoleSessionsDeps) {
  const { repository } = deps;
  const csrfFor = async (sessionId: string) => csrfTokenFor(await deps.csrfKey(), 'console-session', sessionId);

  return {
    /** A session for the right e-mail and password; null for anything else (the same answer, in about the same time). */
    async signIn(email: string, password: string): Promise<{ cookieToken: string; maxAgeSeconds: number } | null> {
      if (email.length > 254 || password.length > MAX_PASSWORD * 4) return null;
      const user = await repository.findUserByEmail(email.trim());
      const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
      if (!user || !ok) return null;
      const cookieToken = newSecret('');
      const now = deps.now();
      const maxAgeSeconds = CONSOLE_SESSION_LIMITS.absoluteHours * 3600;
      const id = newId('cses');
      await repository.insertSession({
        id,
        platform_id: user.platform_id,
        user_id: user.id,
        token_hash: hashSecret(cookieToken),
        now,
        expires_at: new Date(now.getTime() + maxAgeSeconds * 1000),
      });
      await deps.audit.recordConsole(null, {
        actor: { platformId: user.platform_id, userId: user.id, email: user.email },
        action: 'session.sign_in',
        subjectType: 'console_session',
        subjectId: id,
      });
      return { cookieToken, maxAgeSeconds };
    },

    /** A live session ('ended' otherwise); for a form post also the same origin and the session's CSRF token ('forbidden' otherwise). */
    async check(request: { cookieToken: string | undefined; post?: { sameOrigin: boolean; csrf: unknown } }): Promise<ConsolePageAccess> {
      if (!request.cookieToken || request.cookieToken.length > MAX_SESSION_TOKEN) return { state: 'ended' };
      const session = await repository.findSession(hashSecret(request.cookieToken));
      const now = deps.now().getTime();
      if (!session || session.expires_at.getTime() <= now) return { state: 'ended' };
      if (now - session.last_seen_at.getTime() > CONSOLE_SESSION_LIMITS.idleMinutes * 60_000) {
        await repository.deleteSession(session.id);
        return { state: 'ended' };
      }
      const csrf = await csrfFor(session.id);
      if (request.post && (!request.post.sameOrigin || !csrfMatches(request.post.csrf, csrf))) return { state: 'forbidden' };
      if (now - session.last_seen_at.getTime() > TOUCH_EVERY_MS) await repository.touchSession(session.id, new Date(now));
      return {
        state: 'ok',
        context: {
          actor: { platformId: session.platform_id, userId: session.user_id, email: session.email },
          role: session.role,
          sessionId: session.id,
          csrf,
        },
      };
    },

    async signOut(context: ConsolePageContext): Promise<void> {
      await repository.deleteSession(context.sessionId);
      await deps.audit.recordConsole(null, {
        actor: context.actor,
        action: 'session.sign_out',
        subjectType: 'console_session',
        subjectId: context.sessionId,
      });
    },
  };
}

export type ConsoleSessionsService = ReturnType<typeof createConsoleSessionsService>;
