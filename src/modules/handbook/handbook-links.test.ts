import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../lib/secrets.js';
import { createHandbookLinks } from './handbook-links.js';

describe('handbook links', () => {
  let now = new Date('2026-11-24T10:00:00Z');
  const links = createHandbookLinks({
    key: async () => Buffer.alloc(32, 3),
    publicBaseUrl: 'https://sh.example',
    ttlSeconds: 60,
    now: () => now,
  });
  const query = (url: string) => Object.fromEntries(new URL(url).searchParams) as { expires: string; signature: string };

  it('a PDF link verifies for its entity and version until it expires; anything altered is a forgery', async () => {
    now = new Date('2026-11-24T10:00:00Z');
    const url = await links.pdfUrl('le_a', 'hbv_1');
    expect(url).toMatch(/^https:\/\/sh\.example\/files\/handbook\/le_a\/hbv_1\.pdf\?expires=\d+&signature=[\w-]{43}$/);
    const { expires, signature } = query(url);
    expect(await links.verifyPdf('le_a', 'hbv_1', expires, signature)).toBe('ok');
    expect(await links.verifyPdf('le_b', 'hbv_1', expires, signature)).toBe('forged');
    expect(await links.verifyPdf('le_a', 'hbv_2', expires, signature)).toBe('forged');
    expect(await links.verifyPdf('le_a', 'hbv_1', String(Number(expires) + 1), signature)).toBe('forged');
    expect(await links.verifyPdf('le_a', 'hbv_1', `0${expires}`, signature)).toBe('forged');
    expect(await links.verifyPdf('le_a', 'hbv_1', undefined, signature)).toBe('forged');
    now = new Date(now.getTime() + 60_000);
    expect(await links.verifyPdf('le_a', 'hbv_1', expires, signature)).toBe('expired');
  });

  it('an acknowledgement link is the same each time for one employee and version, and differs for any other', async () => {
    const a = await links.ackLink('le_a', 'emp_1', 'hbv_1');
    expect(await links.ackLink('le_a', 'emp_1', 'hbv_1')).toEqual(a);
    const token = a.url.split('/').at(-1)!;
    expect(a.tokenHash).toEqual(hashSecret(token));
    const others = await Promise.all([
      links.ackLink('le_b', 'emp_1', 'hbv_1'),
      links.ackLink('le_a', 'emp_2', 'hbv_1'),
      links.ackLink('le_a', 'emp_1', 'hbv_2'),
    ]);
    expect(new Set([a.url, ...others.map((o) => o.url)]).size).toBe(4);
  });
});
