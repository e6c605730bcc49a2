import { describe, expect, it } from 'vitest';
import { textPdf } from './text-pdf.js';

describe('textPdf', () => {
  it('writes a PDF whose cross-reference table points at each object', () => {
    const text = textPdf(['Hello (world)', 'Back\\slash', 'Non-ASCII: é']).toString('latin1');
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
    const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, i) => expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`));
    // Strings are escaped and limited to printable ASCII.
    expect(text).toContain("(Hello \\(world\\)) '");
    expect(text).toContain("(Back\\\\slash) '");
    expect(text).toContain("(Non-ASCII: ?) '");
    const length = Number(/\/Length (\d+) >>\nstream\n/.exec(text)![1]);
    const streamStart = text.indexOf('stream\n') + 'stream\n'.length;
    expect(text.slice(streamStart + length, streamStart + length + '\nendstream'.length)).toBe('\nendstream');
  });
});
