/**
 * The console module's contract: the roles of a platform's console users and where the console's one-time
 * invitation links point. The console is the platform's own web application at /console (docs/console.md); no
 * other module calls into it.
 */

/** A console user's role, from least to most: read-only sees, a developer also manages webhooks, an admin everything. */
export const CONSOLE_ROLES = ['read_only', 'developer', 'admin'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

export const isConsoleRole = (value: unknown): value is ConsoleRole => (CONSOLE_ROLES as readonly unknown[]).includes(value);

/** Whether `role` may do what needs `needed`. */
export const roleAllows = (role: ConsoleRole, needed: ConsoleRole) => CONSOLE_ROLES.indexOf(role) >= CONSOLE_ROLES.indexOf(needed);

export const ROLE_LABELS: Record<ConsoleRole, string> = { admin: 'Admin', developer: 'Developer', read_only: 'Read-only' };

/** Where invitation links point (their secret follows; never logged: app-http.ts redacts it). */
export const CONSOLE_INVITE_PATH = '/console/invite/';
