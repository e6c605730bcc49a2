import { describe, expect, it } from 'vitest';
import type { BrowserSessionRow } from '../../db/schema.js';
import { InvalidInputError } from '../../lib/errors.js';
import type { HostedSessionsRepository, NewLink, UsedLink } from './hosted-sessions.repository.js';
import { BROWSER_SESSION_MINUTES, HOSTED_SESSION_PATH, type CallbackOriginCheck } from './contract.js';
import { createHostedSessionsService } from './hosted-sessions.service.js';

// The rules of hosted sessions over an in-memory repository: expiry, one-time links, the CSRF check and the
// callback-origin check before a link exists. The SQL itself is covered by test/hosted-*.test.ts.

interface StoredLink extends NewLink {
  consumedAt: Date | null;
}

function memoryRepository() {
  const links: StoredLink[] = [];
  const browserSessions: BrowserSessionRow[] = [];
  const same = (a: Buffer, b: Buffer) => a.equals(b);
  const repository: HostedSessionsRepository = {
    insertLink: async (link) => void links.push({ ...link, consumedAt: null }),
    consumeLink: async (tokenHash, at) => {
      const link = links.find((l) => same(l.tokenHash, tokenHash) && l.consumedAt === null && l.expiresAt > at);
      if (!link) return undefined;
      link.consumedAt = at;
      const used: UsedLink = {
        id: link.id,
        legal_entity_id: link.legalEntityId,
        purpose: link.purpose,
        scope: link.scope,
        callback_url: link.callbackUrl,
      };
      return used;
    },
    findLink: async (tokenHash) => {
      const link = links.find((l) => same(l.tokenHash, tokenHash));
      return (
        link && { legal_entity_id: link.legalEntityId, purpose: link.purpose, consumed_at: link.consumedAt, expires_at: link.expiresAt }
      );
    },
    findLinkUse: async (tokenHash) => {
      const link = links.find((l) => same(l.tokenHash, tokenHash));
      return link && { consumed_at: link.consumedAt };
    },
    insertBrowserSession: async (s) => {
      const row: BrowserSessionRow = {
        id: s.id,
        token_hash: s.tokenHash,
        hosted_session_id: s.link.id,
        legal_entity_id: s.link.legal_entity_id,
        purpose: s.link.purpose,
        scope: s.link.scope,
        callback_url: s.link.callback_url,
        created_at: new Date(0),
        expires_at: s.expiresAt,
      };
      browserSessions.push(row);
      return row;
    },
    findBrowserSession: async (tokenHash) => browserSessions.find((s) => same(s.token_hash, tokenHash)),
    deleteBrowserSession: async (legalEntityId, id) => {
      const index = browserSessions.findIndex((s) => s.legal_entity_id === legalEntityId && s.id === id);
      if (index >= 0) browserSessions.splice(index, 1);
    },
    lastSignupCallbackUrl: async (legalEntityId) =>
      links.filter((l) => l.legalEntityId === legalEntityId && l.purpose === 'signup').at(-1)?.callbackUrl ?? null,
    pageNames: async () => ({ platformId: 'plt_1', platformName: 'Acme Payroll', businessName: 'Widgets Inc', brand: null }),
    findLogo: async () => undefined,
  };
  return { repository, links, browserSessions };
}

function setup(options: { allowed?: string[] } = {}) {
  let clock = new Date('2026-01-01T12:00:00Z');
  const memory = memoryRepository();
  const checked: string[] = [];
  const callbackOrigins: CallbackOriginCheck = {
    check: async (_platformId, url, field) => {
      checked.push(field);
      if (url && options.allowed && !options.allowed.includes(new URL(url).origin))
        throw new InvalidInputError([field], 'not allowed', url);
    },
  };
  const sessions = createHostedSessionsService({
    repository: memory.repository,
    transaction: (work) => work(memory.repository),
    publicBaseUrl: 'https://sh.example',
    now: () => clock,
    csrfKey: async () => Buffer.alloc(32, 7),
    callbackOrigins,
    linkTtlSeconds: 600,
  });
  const tokenOf = (url: string) => url.slice(`https://sh.example${HOSTED_SESSION_PATH}`.length);
  return {
    sessions,
    memory,
    checked,
    tokenOf,
    advance: (ms: number) => {
      clock = new Date(clock.getTime() + ms);
    },
  };
}

const LINK = { purpose: 'tasks', legalEntityId: 'le_1', callbackUrl: 'https://app.example/back', ttlSeconds: 600 } as const;

describe('hosted sessions: issue and exchange', () => {
  it('a link carries a long secret and expires after its time', async () => {
    const { sessions, memory, tokenOf } = setup();
    const issued = await sessions.issue(LINK);
    expect(issued.url.startsWith(`https://sh.example${HOSTED_SESSION_PATH}`)).toBe(true);
    expect(issued.created_at).toBe('2026-01-01T12:00:00.000Z');
    expect(issued.expires_at).toBe('2026-01-01T12:10:00.000Z');
    expect(tokenOf(issued.url).length).toBeGreaterThan(40);
    expect(memory.links[0]).toMatchObject({ id: issued.id, legalEntityId: 'le_1', expiresAt: new Date(issued.expires_at) });
  });

  it('opens once: a second exchange of the same link is "used", and a browser session lasts its minutes', async () => {
    const { sessions, tokenOf, advance } = setup();
    const token = tokenOf((await sessions.issue(LINK)).url);
    const first = await sessions.exchange(token);
    expect(first.state).toBe('ok');
    if (first.state !== 'ok') return;
    expect(first.session).toMatchObject({ legal_entity_id: 'le_1', purpose: 'tasks', callback_url: 'https://app.example/back' });
    expect((await sessions.exchange(token)).state).toBe('used');

    const page = { cookieToken: first.cookieToken, purposes: ['tasks'] as const };
    expect((await sessions.check(page)).state).toBe('ok');
    advance(BROWSER_SESSION_MINUTES * 60_000 + 1);
    expect((await sessions.check(page)).state).toBe('ended');
  });

  it('a preview names what the link opens and never uses it up; afterwards it says "used", and "expired" after its time', async () => {
    const { sessions, tokenOf, advance } = setup();
    const token = tokenOf((await sessions.issue(LINK)).url);
    expect(await sessions.preview(token)).toEqual({
      state: 'ok',
      purpose: 'tasks',
      platformName: 'Acme Payroll',
      businessName: 'Widgets Inc',
      brand: null,
    });
    expect((await sessions.preview(token)).state).toBe('ok');
    expect((await sessions.exchange(token)).state).toBe('ok');
    expect((await sessions.preview(token)).state).toBe('used');
    const later = tokenOf((await sessions.issue(LINK)).url);
    advance(600_000);
    expect((await sessions.preview(later)).state).toBe('expired');
    expect((await sessions.preview('no-such-token')).state).toBe('unknown');
    expect((await sessions.preview('x'.repeat(500))).state).toBe('unknown');
  });

  it('an expired link is "expired", an unknown one "unknown"', async () => {
    const { sessions, tokenOf, advance } = setup();
    const token = tokenOf((await sessions.issue(LINK)).url);
    advance(600_000);
    expect((await sessions.exchange(token)).state).toBe('expired');
    expect((await sessions.exchange('no-such-token')).state).toBe('unknown');
  });
});

describe('hosted sessions: check on each page request', () => {
  async function opened() {
    const s = setup();
    const exchange = await s.sessions.exchange(s.tokenOf((await s.sessions.issue(LINK)).url));
    if (exchange.state !== 'ok') throw new Error('the link did not open');
    return { ...s, cookieToken: exchange.cookieToken };
  }

  it('gives the page its context, including the CSRF token bound to the session', async () => {
    const { sessions, cookieToken } = await opened();
    const access = await sessions.check({ cookieToken, purposes: ['tasks', 'task'] });
    expect(access.state).toBe('ok');
    if (access.state !== 'ok') return;
    expect(access.context).toMatchObject({
      platformName: 'Acme Payroll',
      businessName: 'Widgets Inc',
      scope: { platformId: 'plt_1', legalEntityId: 'le_1' },
    });
    expect(access.context.csrf).toMatch(/^[\w-]{43}$/);
    const post = await sessions.check({ cookieToken, purposes: ['tasks'], post: { sameOrigin: true, csrf: access.context.csrf } });
    expect(post.state).toBe('ok');
  });

  it('a session of another purpose, no cookie or an over-long cookie is "ended"', async () => {
    const { sessions, cookieToken } = await opened();
    expect((await sessions.check({ cookieToken, purposes: ['payroll'] })).state).toBe('ended');
    expect((await sessions.check({ cookieToken: undefined, purposes: ['tasks'] })).state).toBe('ended');
    expect((await sessions.check({ cookieToken: 'x'.repeat(129), purposes: ['tasks'] })).state).toBe('ended');
  });

  it('a form post needs the same origin and the exact CSRF token', async () => {
    const { sessions, cookieToken } = await opened();
    const access = await sessions.check({ cookieToken, purposes: ['tasks'] });
    if (access.state !== 'ok') throw new Error('no session');
    const csrf = access.context.csrf;
    const post = (p: { sameOrigin: boolean; csrf: unknown }) => sessions.check({ cookieToken, purposes: ['tasks'], post: p });
    expect((await post({ sameOrigin: false, csrf })).state).toBe('forbidden');
    expect((await post({ sameOrigin: true, csrf: undefined })).state).toBe('forbidden');
    expect((await post({ sameOrigin: true, csrf: `${csrf}=` })).state).toBe('forbidden');
    expect((await post({ sameOrigin: true, csrf: csrf.slice(0, -1) + (csrf.endsWith('A') ? 'B' : 'A') })).state).toBe('forbidden');
  });

  it('an ended browser session no longer opens pages', async () => {
    const { sessions, cookieToken } = await opened();
    const access = await sessions.check({ cookieToken, purposes: ['tasks'] });
    if (access.state !== 'ok') throw new Error('no session');
    await sessions.endBrowserSession(access.context.session);
    expect((await sessions.check({ cookieToken, purposes: ['tasks'] })).state).toBe('ended');
  });
});

describe('hosted sessions: issueForCallback', () => {
  it('checks the callback origin on the named field, then answers {url, created_at, expires_at} with the configured lifetime', async () => {
    const { sessions, checked } = setup({ allowed: ['https://app.example'] });
    const link = await sessions.issueForCallback({
      platformId: 'plt_1',
      legalEntityId: 'le_1',
      purpose: 'documents',
      callbackUrl: 'https://app.example/x',
    });
    expect(Object.keys(link).sort()).toEqual(['created_at', 'expires_at', 'url']);
    expect(link.expires_at).toBe('2026-01-01T12:10:00.000Z');
    await sessions.issueForCallback({
      platformId: 'plt_1',
      legalEntityId: 'le_1',
      purpose: 'payroll',
      callbackUrl: 'https://app.example/x',
      callbackField: 'authorization_callback_url',
    });
    expect(checked).toEqual(['callback_url', 'authorization_callback_url']);
  });

  it('a refused callback issues no link and runs none of the work before it', async () => {
    const { sessions, memory } = setup({ allowed: ['https://app.example'] });
    let started = false;
    const refused = sessions.issueForCallback({
      platformId: 'plt_1',
      legalEntityId: 'le_1',
      purpose: 'automation',
      callbackUrl: 'https://evil.example/x',
      beforeIssue: async () => {
        started = true;
      },
    });
    await expect(refused).rejects.toMatchObject({ path: ['callback_url'], input: 'https://evil.example/x' });
    expect(started).toBe(false);
    expect(memory.links).toHaveLength(0);
  });

  it('runs the work before the link exists when the callback is allowed', async () => {
    const { sessions, memory } = setup();
    const linksWhenStarted: number[] = [];
    await sessions.issueForCallback({
      platformId: 'plt_1',
      legalEntityId: 'le_1',
      purpose: 'automation',
      callbackUrl: null,
      scope: { task_id: 'task_1' },
      beforeIssue: async () => {
        linksWhenStarted.push(memory.links.length);
      },
    });
    expect(linksWhenStarted).toEqual([0]);
    expect(memory.links[0]).toMatchObject({ purpose: 'automation', callbackUrl: null, scope: { task_id: 'task_1' } });
  });
});
