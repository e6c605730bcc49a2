import { describe, expect, it } from 'vitest';
import { callbackCspSource, callbackOriginOf, checkCallbackUrl } from './callback-url.js';

describe('callback URLs', () => {
  it('accepts http(s) URLs and an app scheme, matched by origin or by the whole scheme', () => {
    for (const [url, origin] of [
      ['https://app.example.com/done?x=1', 'https://app.example.com'],
      ['http://localhost:3000/back', 'http://localhost:3000'],
      ['myapp://tasks', 'myapp://'],
      ['com.example.app:/oauth/done', 'com.example.app://'],
    ] as const) {
      const checked = checkCallbackUrl(url);
      expect(checked.ok, url).toBe(true);
      if (checked.ok) expect(callbackOriginOf(checked.url)).toBe(origin);
    }
  });

  it('refuses schemes a browser would run or open, and relative URLs, saying why', () => {
    for (const url of ['javascript:alert(1)', ' JAVASCRIPT:alert(1)', 'data:text/html,x', 'vbscript:x', 'file:///etc/passwd', 'blob:x']) {
      expect(checkCallbackUrl(url)).toMatchObject({ ok: false, type: 'url_scheme', reason: expect.stringContaining('cannot use the') });
    }
    for (const url of ['/done', 'done', '//evil.example', '']) {
      expect(checkCallbackUrl(url)).toMatchObject({ ok: false, type: 'url_parsing', reason: expect.stringContaining('must be absolute') });
    }
    expect(checkCallbackUrl('https://')).toMatchObject({ ok: false });
  });

  it("a hosted page's CSP form-action allows the callback's origin, or its scheme for a deep link", () => {
    expect(callbackCspSource('https://app.example.com/done')).toBe('https://app.example.com');
    expect(callbackCspSource('myapp://tasks')).toBe('myapp:');
  });
});
