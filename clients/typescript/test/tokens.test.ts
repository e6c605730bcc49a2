// The entity token source with an injected clock: reused while more than a minute remains, fetched again when less
// does, concurrent callers share one fetch.
import { describe, expect, it } from 'vitest';
import { createTokenSource } from '../src/tokens.js';

describe('token source', () => {
  it('refreshes when less than 60 s of the 10 minutes remain, by the injected clock', async () => {
    let clock = 0;
    let issued = 0;
    const source = createTokenSource({ now: () => clock, issue: async () => ({ access_token: `t${++issued}`, expires_in: 600 }) });
    expect(await source.token()).toBe('t1');
    expect(source.expiresAt()).toBe(600_000);
    clock = 539_000; // 61 s left
    expect(await source.authorization()).toBe('Bearer t1');
    clock = 541_000; // 59 s left
    expect(await source.token()).toBe('t2');
    expect(source.expiresAt()).toBe(1_141_000);
  });

  it('shares one fetch between concurrent callers, and refresh() replaces the token', async () => {
    let issued = 0;
    const source = createTokenSource({ now: () => 0, issue: async () => ({ access_token: `t${++issued}`, expires_in: 600 }) });
    expect(await Promise.all([source.token(), source.token(), source.token()])).toEqual(['t1', 't1', 't1']);
    expect(await source.refresh?.()).toBe(true);
    expect(await source.token()).toBe('t2');
    expect(issued).toBe(2);
  });
});
