/**
 * The console's pages as its navigation lists them: adding a page is one entry here (and its routes in index.ts).
 * Every page is shown to every role; what a role may do on it is checked per form post (console.http.ts).
 */
export interface ConsoleNavEntry {
  path: string;
  label: string;
}

export const CONSOLE_NAV: ConsoleNavEntry[] = [
  { path: '/console', label: 'Home' },
  { path: '/console/api-keys', label: 'API keys' },
  { path: '/console/webhooks', label: 'Webhooks' },
  { path: '/console/events', label: 'Events' },
  { path: '/console/request-logs', label: 'Request logs' },
  { path: '/console/callback-origins', label: 'Callback origins' },
  { path: '/console/branding', label: 'Branding' },
  { path: '/console/users', label: 'Users' },
  { path: '/console/audit', label: 'Audit' },
];
