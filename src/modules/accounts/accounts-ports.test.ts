import { describe, expect, it } from 'vitest';
import { mergeAttributes } from './accounts-ports.js';

describe("a connection's sync", () => {
  it('learned attributes fill an existing item by name or are added', () => {
    const data = [
      { name: 'Account Number', description: 'From the agency letter', value: null, status: 'todo' as const },
      { name: 'UI rate', description: null, value: null, status: 'todo' as const },
    ];
    expect(mergeAttributes(data, [{ name: 'Account number', description: 'x', value: '1234-5678' }])).toEqual([
      { name: 'Account Number', description: 'From the agency letter', value: '1234-5678', status: 'done' },
      data[1],
    ]);
    expect(mergeAttributes([], [{ name: 'Account number', description: 'x', value: '1' }])).toEqual([
      { name: 'Account number', description: 'x', value: '1', status: 'done' },
    ]);
    expect(data[0]!.value).toBeNull(); // not mutated
  });
});
