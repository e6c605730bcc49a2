/**
 * JSON request-body parsing that reports malformed input exactly like a
 * FastAPI service (CPython 3.12 `json.loads`, C scanner in Modules/_json.c):
 * same message, same position (code point index into the decoded text).
 *
 * Valid input goes through native JSON.parse, after a cheap bracket scan that
 * refuses excessive nesting first; the CPython-faithful scanner below only
 * runs for input that is invalid or too deep.
 */

export type JsonBodyResult =
  { ok: true; value: unknown } | { ok: false; kind: 'json_invalid'; pos: number; msg: string } | { ok: false; kind: 'undecodable' }; // not valid UTF-8

export const MAX_JSON_DEPTH = 64;

const DEPTH_MSG = `Maximum nesting depth of ${MAX_JSON_DEPTH} exceeded`;
const EXPECTING_VALUE = 'Expecting value';
const EXPECTING_KEY = 'Expecting property name enclosed in double quotes';

// ignoreBOM keeps the BOM so there is exactly one place that strips it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function parseJsonBody(body: Buffer | string): JsonBodyResult {
  let text: string;
  if (typeof body === 'string') {
    text = body;
  } else {
    try {
      text = utf8.decode(body);
    } catch {
      return { ok: false, kind: 'undecodable' };
    }
  }
  // json.loads(bytes) decodes with utf-8-sig: one leading BOM is dropped.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);

  // Depth is checked before anything is built: a deeply nested megabyte costs one cheap scan, stopped at
  // the first bracket over the limit, never a parse into a tree (nor a walk of it).
  if (firstTooDeep(text) >= 0) {
    const error = scan(text); // the first error in document order: a syntax error before the depth overflow wins
    if (error) return invalid(text, error[0], error[1]);
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // JSON.parse and our scanner reject the same texts (CPython's grammar
    // minus NaN/Infinity), so the fallback is only defensive.
    const [pos, msg] = scan(text) ?? [0, EXPECTING_VALUE];
    return invalid(text, pos, msg);
  }
}

function invalid(text: string, unit: number, msg: string): JsonBodyResult {
  return { ok: false, kind: 'json_invalid', pos: codePointIndex(text, unit), msg };
}

/** Python indexes str by code point; JS by UTF-16 unit. */
function codePointIndex(s: string, unit: number): number {
  let pairs = 0;
  for (let i = 0; i + 1 < unit; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return unit - pairs;
}

/**
 * Index of the first bracket nested deeper than MAX_JSON_DEPTH, or -1. Exact for valid JSON; for invalid
 * text it may be wrong either way, which is harmless: such text then goes through `scan`, which is exact.
 */
function firstTooDeep(s: string): number {
  // Exceeding the limit needs MAX+1 openers and as many closers.
  if (s.length < 2 * MAX_JSON_DEPTH) return -1;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote: one not preceded by an odd run of '\'.
      for (;;) {
        i = s.indexOf('"', i + 1);
        if (i < 0) return -1; // unterminated: JSON.parse rejects it, scan() says where
        let k = i - 1;
        while (s.charCodeAt(k) === 0x5c) k--;
        if ((i - 1 - k) % 2 === 0) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}

type ScanError = [unitIndex: number, msg: string];

function skipWs(s: string, i: number): number {
  // CPython's WHITESPACE and IS_WHITESPACE: only these four.
  for (;;) {
    const c = s.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
    i++;
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/**
 * Mirrors scan_once_unicode / _parse_object / _parse_array, but with an
 * explicit stack so deeply nested garbage cannot overflow ours. Returns the
 * first error in document order (a depth overflow counts as one), or null.
 */
function scan(s: string): ScanError | null {
  const n = s.length;
  const open: number[] = []; // 0x5b '[' or 0x7b '{' per open container
  let i = skipWs(s, 0);
  for (;;) {
    // --- one value starting at i ---
    const c = s.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (open.length === MAX_JSON_DEPTH) return [i, DEPTH_MSG];
      i = skipWs(s, i + 1);
      if (s.charCodeAt(i) === c + 2) {
        i++; // empty [] or {} (']' and '}' are '[' and '{' plus 2)
      } else {
        open.push(c);
        if (c === 0x7b) {
          const r = key(s, i);
          if (typeof r !== 'number') return r;
          i = r;
        }
        continue; // first element / member value
      }
    } else if (c === 0x22) {
      const r = string(s, i);
      if (typeof r !== 'number') return r;
      i = r;
    } else if (s.startsWith('null', i) || s.startsWith('true', i)) {
      i += 4;
    } else if (s.startsWith('false', i)) {
      i += 5;
    } else {
      // Python would also take NaN/Infinity/-Infinity here; we reject them.
      const r = number(s, i);
      if (r < 0) return [i, EXPECTING_VALUE];
      i = r;
    }
    // --- after a value: close containers until one wants another value ---
    for (;;) {
      i = skipWs(s, i);
      const top = open[open.length - 1];
      if (top === undefined) return i === n ? null : [i, 'Extra data'];
      const d = s.charCodeAt(i);
      if (d === top + 2) {
        open.pop();
        i++;
        continue;
      }
      if (d !== 0x2c) return [i, "Expecting ',' delimiter"];
      i = skipWs(s, i + 1);
      if (top === 0x7b) {
        // 3.12 (unlike 3.13) has no special trailing-comma message.
        const r = key(s, i);
        if (typeof r !== 'number') return r;
        i = r;
      }
      break;
    }
  }
}

/** `"key" :` plus following whitespace; returns the index of the value. */
function key(s: string, i: number): number | ScanError {
  if (s.charCodeAt(i) !== 0x22) return [i, EXPECTING_KEY];
  const r = string(s, i);
  if (typeof r !== 'number') return r;
  i = skipWs(s, r);
  if (s.charCodeAt(i) !== 0x3a) return [i, "Expecting ':' delimiter"];
  return skipWs(s, i + 1);
}

/** scanstring_unicode; `q` is the opening quote. Returns index after the close. */
function string(s: string, q: number): number | ScanError {
  const n = s.length;
  for (let i = q + 1; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return [i, 'Invalid control character at'];
    if (c !== 0x5c) continue;
    i++;
    if (i === n) break;
    const e = s.charCodeAt(i);
    if (e === 0x75) {
      // _json.c: `end = next + 4; if (end >= len)` -> the 4 hex digits must be
      // followed by at least one more char; both errors point at the 'u'.
      // (A surrogate pair's second \u fails at its own 'u' either way.)
      if (
        i + 5 >= n ||
        !isHex(s.charCodeAt(i + 1)) ||
        !isHex(s.charCodeAt(i + 2)) ||
        !isHex(s.charCodeAt(i + 3)) ||
        !isHex(s.charCodeAt(i + 4))
      ) {
        return [i, 'Invalid \\uXXXX escape'];
      }
      i += 4;
    } else if ('"\\/bfnrt'.indexOf(String.fromCharCode(e)) < 0) {
      return [i - 1, 'Invalid \\escape']; // at the backslash
    }
  }
  return [q, 'Unterminated string starting at'];
}

/**
 * _match_number_unicode: -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)? , where a
 * dangling '.' or exponent is left unconsumed. Returns end index or -1.
 */
function number(s: string, i: number): number {
  if (s.charCodeAt(i) === 0x2d) i++;
  const c = s.charCodeAt(i);
  if (c === 0x30) i++;
  else if (c >= 0x31 && c <= 0x39) {
    i++;
    while (isDigit(s.charCodeAt(i))) i++;
  } else return -1;
  if (s.charCodeAt(i) === 0x2e && isDigit(s.charCodeAt(i + 1))) {
    i += 2;
    while (isDigit(s.charCodeAt(i))) i++;
  }
  const e = s.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    let j = i + 1;
    const sign = s.charCodeAt(j);
    if (sign === 0x2b || sign === 0x2d) j++;
    const digits = j;
    while (isDigit(s.charCodeAt(j))) j++;
    if (j > digits) i = j;
  }
  return i;
}
