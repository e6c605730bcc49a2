import type { Db } from '../../db/database.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { hashSecret, newSecret } from '../../lib/secrets.js';
import type { AuditService, ConsoleActor } from '../audit/contract.js';
import { CONSOLE_INVITE_PATH, type ConsoleRole } from './contract.js';
import { hashPassword, MAX_PASSWORD, passwordProblem } from './console-passwords.js';
import type { ConsoleRepository, ConsoleUserRow } from './console.repository.js';

/** How long an invitation link can be used. */
export const INVITE_HOURS = 24;
const MAX_EMAIL = 254;
const MAX_TOKEN = 128;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface ConsoleUsersDeps {
  db: Db;
  repositoryFor: (db: Db) => ConsoleRepository;
  audit: Pick<AuditService, 'recordConsole'>;
  publicBaseUrl: string;
  now: () => Date;
  /** Whether a platform exists (the CLI names one). */
  platformExists: (platformId: string) => Promise<boolean>;
}

export interface IssuedInvite {
  url: string;
  expires_at: string;
  email: string;
  role: ConsoleRole;
}

/** Why an e-mail address cannot be invited, or null. */
export function emailProblem(email: string): string | null {
  if (!email) return 'Enter an e-mail address';
  if (email.length > MAX_EMAIL || !EMAIL.test(email)) return 'Enter an e-mail address like name@example.com';
  return null;
}

/**
 * A platform's console users: invitations (one-time links, the token stored as its hash), accepting one (the
 * person chooses a password), roles, removal. An admin can never remove or demote the platform's last admin.
 */
export function createConsoleUsersService(deps: ConsoleUsersDeps) {
  const repo = deps.repositoryFor(deps.db);

  async function requireUser(platformId: string, id: string): Promise<ConsoleUserRow> {
    const user = await repo.findUser(platformId, id);
    if (!user) throw new NotFoundError(`Console user '${id}' not found`);
    return user;
  }

  async function assertNotLastAdmin(platformId: string, user: ConsoleUserRow) {
    if (user.role !== 'admin') return;
    const admins = (await repo.listUsers(platformId)).filter((u) => u.role === 'admin');
    if (admins.length <= 1) throw new ConflictError('A platform keeps at least one admin');
  }

  return {
    list: (platformId: string) => repo.listUsers(platformId),

    /** A one-time link for `email` to join the platform's console with `role`. `by`: the inviting admin; null for the CLI. */
    async invite(platformId: string, input: { email: string; role: ConsoleRole }, by: ConsoleActor | null): Promise<IssuedInvite> {
      const email = input.email.trim();
      const problem = emailProblem(email);
      if (problem) throw new ConflictError(problem);
      if (!(await deps.platformExists(platformId))) throw new NotFoundError(`Platform '${platformId}' not found`);
      if (await repo.findUserByEmail(email)) throw new ConflictError(`${email} already has a console account`);
      const token = newSecret('');
      const expiresAt = new Date(deps.now().getTime() + INVITE_HOURS * 3_600_000);
      const id = newId('cinv');
      await deps.db.transaction().execute(async (trx) => {
        await deps.repositoryFor(trx).insertInvite({
          id,
          platform_id: platformId,
          email,
          role: input.role,
          token_hash: hashSecret(token),
          invited_by: by?.userId ?? null,
          expires_at: expiresAt,
        });
        if (by) {
          await deps.audit.recordConsole(trx, {
            actor: by,
            action: 'console_user.invite',
            subjectType: 'console_invite',
            subjectId: id,
            details: { email, role: input.role },
          });
        }
      });
      return { url: `${deps.publicBaseUrl}${CONSOLE_INVITE_PATH}${token}`, expires_at: expiresAt.toISOString(), email, role: input.role };
    },

    /** Whom an invitation is for (null when it cannot be used), without using it up. */
    async previewInvite(token: string) {
      if (token.length > MAX_TOKEN) return null;
      return (await repo.findUsableInvite(hashSecret(token), deps.now())) ?? null;
    },

    /**
     * Uses an invitation: the user is created with the chosen password in the same transaction. Answers the new
     * user, `{problem}` for a password to choose again, or null when the link cannot be used.
     */
    async acceptInvite(token: string, password: string, confirm: string): Promise<ConsoleUserRow | { problem: string } | null> {
      if (token.length > MAX_TOKEN || password.length > MAX_PASSWORD * 4) return null;
      const problem = passwordProblem(password, confirm);
      if (problem) return (await this.previewInvite(token)) ? { problem } : null;
      const passwordHash = await hashPassword(password);
      return deps.db.transaction().execute(async (trx) => {
        const r = deps.repositoryFor(trx);
        const invite = await r.consumeInvite(hashSecret(token), deps.now());
        if (!invite) return null;
        if (await r.findUserByEmail(invite.email)) return null;
        const user = { id: newId('cusr'), platform_id: invite.platform_id, email: invite.email, role: invite.role };
        await r.insertUser({ ...user, password_hash: passwordHash });
        const actor = { platformId: user.platform_id, userId: user.id, email: user.email };
        await deps.audit.recordConsole(trx, {
          actor,
          action: 'console_user.join',
          subjectType: 'console_user',
          subjectId: user.id,
          details: { invite_id: invite.id, role: user.role },
        });
        return { ...user, created_at: deps.now() };
      });
    },

    async changeRole(actor: ConsoleActor, userId: string, role: ConsoleRole): Promise<void> {
      const user = await requireUser(actor.platformId, userId);
      if (user.role === role) return;
      if (role !== 'admin') await assertNotLastAdmin(actor.platformId, user);
      await deps.db.transaction().execute(async (trx) => {
        await deps.repositoryFor(trx).setRole(actor.platformId, userId, role);
        await deps.audit.recordConsole(trx, {
          actor,
          action: 'console_user.change_role',
          subjectType: 'console_user',
          subjectId: userId,
          details: { from: user.role, to: role },
        });
      });
    },

    async remove(actor: ConsoleActor, userId: string): Promise<void> {
      if (userId === actor.userId) throw new ForbiddenError('You cannot remove yourself');
      const user = await requireUser(actor.platformId, userId);
      await assertNotLastAdmin(actor.platformId, user);
      await deps.db.transaction().execute(async (trx) => {
        await deps.repositoryFor(trx).deleteUser(actor.platformId, userId);
        await deps.audit.recordConsole(trx, {
          actor,
          action: 'console_user.remove',
          subjectType: 'console_user',
          subjectId: userId,
          details: { email: user.email },
        });
      });
    },
  };
}

export type ConsoleUsersService = ReturnType<typeof createConsoleUsersService>;
