import { describe, expect, it } from 'vitest';
import { progressLine } from './import-command.js';

const stream = (isTTY: boolean) => {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream };
};

describe('progressLine', () => {
  it('draws a bar rewritten in place on a terminal, and ends the line', () => {
    const { written, stream: s } = stream(true);
    const progress = progressLine(10, s);
    progress.update(5);
    progress.end(10);
    expect(written).toEqual([`\r[${'#'.repeat(15)}${'.'.repeat(15)}] 5/10 rows`, `\r[${'#'.repeat(30)}] 10/10 rows`, '\n']);
  });

  it('writes nothing when the stream is not a terminal', () => {
    const { written, stream: s } = stream(false);
    const progress = progressLine(10, s);
    progress.update(5);
    progress.end(10);
    expect(written).toEqual([]);
  });
});
