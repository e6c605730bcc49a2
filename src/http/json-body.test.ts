import { describe, it, expect, vi } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonBody, type JsonBodyResult } from './json-body.js';

// [input, pos, msg] exactly as CPython 3.12.1's `json.loads` reports them
// (JSONDecodeError.pos / .msg), generated with the real interpreter.
// pos counts code points, so the emoji rows check the UTF-16 conversion.
const CPYTHON_312: Array<[string, number, string]> = [
  ['', 0, 'Expecting value'],
  [' ', 1, 'Expecting value'],
  ['\n\t ', 3, 'Expecting value'],
  ['{', 1, 'Expecting property name enclosed in double quotes'],
  ['[', 1, 'Expecting value'],
  ['{"a" 1}', 5, "Expecting ':' delimiter"],
  ['{"a":1,}', 7, 'Expecting property name enclosed in double quotes'],
  ['[1,]', 3, 'Expecting value'],
  ['[1 2]', 3, "Expecting ',' delimiter"],
  ['{"a":1}x', 7, 'Extra data'],
  ['"abc', 0, 'Unterminated string starting at'],
  ['{"a":"x\ny"}', 7, 'Invalid control character at'],
  ['01', 1, 'Extra data'],
  ['-01', 2, 'Extra data'],
  ["{'a':1}", 1, 'Expecting property name enclosed in double quotes'],
  ['-', 0, 'Expecting value'],
  ['- 1', 0, 'Expecting value'],
  ['tru', 0, 'Expecting value'],
  ['[tru]', 1, 'Expecting value'],
  ['nul', 0, 'Expecting value'],
  ['true false', 5, 'Extra data'],
  ['{"a":}', 5, 'Expecting value'],
  ['{"a"', 4, "Expecting ':' delimiter"],
  ['{"a":', 5, 'Expecting value'],
  ['[1,2', 4, "Expecting ',' delimiter"],
  ['{"a":1 "b":2}', 7, "Expecting ',' delimiter"],
  ['{,}', 1, 'Expecting property name enclosed in double quotes'],
  ['[,]', 1, 'Expecting value'],
  ['{"a":1,,}', 7, 'Expecting property name enclosed in double quotes'],
  ['[1,2,]}', 5, 'Expecting value'],
  ['{"a":1}}', 7, 'Extra data'],
  ['1 2', 2, 'Extra data'],
  ['[1.]', 2, "Expecting ',' delimiter"],
  ['1.e5', 1, 'Extra data'],
  ['1e+', 1, 'Extra data'],
  ['.5', 0, 'Expecting value'],
  ['[-]', 1, 'Expecting value'],
  ['+1', 0, 'Expecting value'],
  ['"\\x"', 1, 'Invalid \\escape'],
  ['"ab\\q"', 3, 'Invalid \\escape'],
  ['"\\', 0, 'Unterminated string starting at'],
  ['"\\u12"', 2, 'Invalid \\uXXXX escape'],
  ['"\\u12G4"', 2, 'Invalid \\uXXXX escape'],
  ['"\\u1234', 2, 'Invalid \\uXXXX escape'],
  ['"\\ud800\\uzzzz"', 8, 'Invalid \\uXXXX escape'],
  ['"\\ud800\\u12', 8, 'Invalid \\uXXXX escape'],
  ['"a\u001fb"', 2, 'Invalid control character at'],
  ['"\t"', 1, 'Invalid control character at'],
  ['[1]\u00a0', 3, 'Extra data'],
  ['\u000b1', 0, 'Expecting value'],
  ['{"a":1}\n\n}', 9, 'Extra data'],
  ['[{"a":[1,{"b":}]}]', 14, 'Expecting value'],
  ['  [\n 1,\n  ]', 10, 'Expecting value'],
  ['{"😀":1,}', 7, 'Expecting property name enclosed in double quotes'],
  ['["😀😀", x]', 7, 'Expecting value'],
  ['"😀\t"', 2, 'Invalid control character at'],
  ['"😀', 0, 'Unterminated string starting at'],
  ['😀', 0, 'Expecting value'],
  ['{"é😀":"😀"} 😀', 11, 'Extra data'],
  ['["\\ud83d\\ude00", ]', 17, 'Expecting value'],
];

const fail = (pos: number, msg: string): JsonBodyResult => ({ ok: false, kind: 'json_invalid', pos, msg });
const EV = 'Expecting value';
const DEPTH = `Maximum nesting depth of ${MAX_JSON_DEPTH} exceeded`;

describe('parseJsonBody: CPython 3.12 error positions and messages', () => {
  it('has a substantial table', () => {
    expect(CPYTHON_312.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CPYTHON_312)('%j -> %i %s', (input, pos, msg) => {
    expect(parseJsonBody(input)).toEqual(fail(pos, msg));
    expect(parseJsonBody(Buffer.from(input, 'utf8'))).toEqual(fail(pos, msg));
  });
});

describe('parseJsonBody: deliberate divergences from CPython', () => {
  // Python accepts these constants; we reject them where the value starts.
  it.each<[string, number]>([
    ['NaN', 0],
    ['Infinity', 0],
    ['-Infinity', 0],
    ['[1,NaN]', 3],
    ['{"a":Infinity}', 5],
    ['{"😀":-Infinity}', 5],
  ])('%j -> Expecting value at %i', (input, pos) => {
    expect(parseJsonBody(input)).toEqual(fail(pos, EV));
  });
});

describe('parseJsonBody: nesting depth', () => {
  const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it(`accepts exactly ${MAX_JSON_DEPTH} levels`, () => {
    expect(parseJsonBody(nest(MAX_JSON_DEPTH)).ok).toBe(true);
    expect(parseJsonBody('{"a":'.repeat(MAX_JSON_DEPTH - 1) + '[]' + '}'.repeat(MAX_JSON_DEPTH - 1)).ok).toBe(true);
  });

  it('rejects valid JSON one level deeper at the offending bracket', () => {
    expect(parseJsonBody(nest(MAX_JSON_DEPTH + 1))).toEqual(fail(64, DEPTH));
    const objs = '{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1);
    expect(parseJsonBody(objs)).toEqual(fail(5 * 64, DEPTH));
  });

  it('reports the depth position in code points', () => {
    const text = '["😀",' + nest(MAX_JSON_DEPTH) + ']';
    expect(parseJsonBody(text)).toEqual(fail(5 + MAX_JSON_DEPTH - 1, DEPTH));
  });

  it('ignores brackets inside strings, including after escaped quotes', () => {
    const s = JSON.stringify('\\"' + '['.repeat(300) + '"{');
    expect(parseJsonBody(`[${s},${s}]`).ok).toBe(true);
    expect(parseJsonBody(`{${s}:${nest(MAX_JSON_DEPTH - 1)}}`).ok).toBe(true);
    expect(parseJsonBody(`{${s}:${nest(MAX_JSON_DEPTH)}}`)).toEqual(fail(s.length + 2 + MAX_JSON_DEPTH - 1, DEPTH));
  });

  it('does not overflow the stack on deeply nested invalid input', () => {
    expect(parseJsonBody('['.repeat(100_000))).toEqual(fail(64, DEPTH));
    expect(parseJsonBody('{"a":'.repeat(100_000))).toEqual(fail(5 * 64, DEPTH));
    expect(parseJsonBody('[1,'.repeat(100_000) + '}')).toEqual(fail(3 * 64, DEPTH));
  });

  it('refuses a deeply nested megabyte before building anything (JSON.parse never runs)', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const valid = nest(500_000); // valid JSON, 1 MB, 500,000 levels
      expect(parseJsonBody(Buffer.from(valid))).toEqual(fail(64, DEPTH));
      expect(parseJsonBody(`{"a": [${'{"b":'.repeat(200_000)}1${'}'.repeat(200_000)}]}`)).toEqual(fail(7 + 5 * 62, DEPTH));
      expect(parse).not.toHaveBeenCalled();
      expect(parseJsonBody(nest(MAX_JSON_DEPTH)).ok).toBe(true);
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('reports an earlier syntax error before the depth limit', () => {
    expect(parseJsonBody('[x' + '['.repeat(1000))).toEqual(fail(1, EV));
    expect(parseJsonBody('['.repeat(10) + '1 2' + '['.repeat(1000))).toEqual(fail(12, "Expecting ',' delimiter"));
  });
});

describe('parseJsonBody: bytes', () => {
  it('returns undecodable for invalid UTF-8', () => {
    for (const bytes of [[0xff], [0xc3, 0x28], [0x22, 0xe2, 0x82, 0x22], [0xc0, 0xaf], [0x22, 0xed, 0xa0, 0x80, 0x22]]) {
      expect(parseJsonBody(Buffer.from(bytes))).toEqual({ ok: false, kind: 'undecodable' });
    }
  });

  it('strips exactly one leading BOM', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(parseJsonBody(Buffer.concat([bom, Buffer.from('{"a":1}')]))).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonBody('\ufeff[true]')).toEqual({ ok: true, value: [true] });
    // Positions are relative to the text after the BOM (as in Python).
    expect(parseJsonBody(Buffer.concat([bom, Buffer.from('{"a" 1}')]))).toEqual(fail(5, "Expecting ':' delimiter"));
    expect(parseJsonBody(Buffer.concat([bom, bom, Buffer.from('1')]))).toEqual(fail(0, EV));
  });

  it('counts multi-byte characters as one position', () => {
    expect(parseJsonBody(Buffer.from('{"é😀":"😀"} 😀', 'utf8'))).toEqual(fail(11, 'Extra data'));
  });
});

describe('parseJsonBody: valid input', () => {
  it.each<[string, unknown]>([
    ['{"a":[1,2.5,-3e2,true,false,null,"x"]}', { a: [1, 2.5, -300, true, false, null, 'x'] }],
    [' \n"\\ud83d\\ude00" \t', '😀'],
    ['0', 0],
    ['[]', []],
  ])('%j', (input, value) => {
    expect(parseJsonBody(input)).toEqual({ ok: true, value });
  });

  it('accepts a large, shallow document', () => {
    const doc = { items: Array.from({ length: 1000 }, (_, i) => ({ id: i, tags: ['[', '{', '"'] })) };
    expect(parseJsonBody(JSON.stringify(doc))).toEqual({ ok: true, value: doc });
  });
});
