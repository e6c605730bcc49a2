// Callback URLs: where a hosted page sends the user back to the platform — a web page (https://app.example.com/done)
// or a mobile app's deep link (myapp://tasks). See docs/decisions/0076-reference-valid-requests.md.

/** Schemes a browser would run, open locally or treat as content instead of returning the user to an app. */
export const REFUSED_CALLBACK_SCHEMES = ['javascript', 'vbscript', 'data', 'file', 'blob', 'about', 'filesystem'] as const;

export type CallbackUrlCheck = { ok: true; url: URL } | { ok: false; type: 'url_parsing' | 'url_scheme'; reason: string };

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;

/** Whether a string may be a callback URL at all (the platform's registered origins are checked later). */
export function checkCallbackUrl(input: string): CallbackUrlCheck {
  const scheme = SCHEME.exec(input.trim())?.[1]?.toLowerCase();
  if (scheme === undefined) {
    return {
      ok: false,
      type: 'url_parsing',
      reason:
        'a callback URL must be absolute, with a scheme (e.g. https://app.example.com/done, or myapp://done for a mobile app): a relative URL would resolve against Statehouse, not your app',
    };
  }
  if ((REFUSED_CALLBACK_SCHEMES as readonly string[]).includes(scheme)) {
    return {
      ok: false,
      type: 'url_scheme',
      reason: `a callback URL cannot use the '${scheme}:' scheme: a browser would run or open it in Statehouse's page instead of returning the user to your app (use https://… or your app's own scheme)`,
    };
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, type: 'url_parsing', reason: 'the callback URL could not be read as a URL' };
  }
  const web = url.protocol === 'http:' || url.protocol === 'https:';
  if (web && url.hostname === '') return { ok: false, type: 'url_parsing', reason: 'an http(s) callback URL needs a host' };
  return { ok: true, url };
}

/**
 * What a platform registers and what a callback URL is matched against: an http(s) URL's origin
 * (https://app.example.com), or a custom scheme as a whole (myapp://), since an app's deep links have no origin.
 */
export function callbackOriginOf(url: URL): string {
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : `${url.protocol}//`;
}

/** The CSP source that lets a hosted page's form end in a redirect to the callback: its origin, or `myapp:`. */
export function callbackCspSource(callbackUrl: string): string {
  const url = new URL(callbackUrl);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}
