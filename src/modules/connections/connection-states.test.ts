import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { CANCELABLE, CONNECTION_STATUSES, canTransition, InvalidTransitionError, TRANSITIONS, transition } from './connection-states.js';

describe('the connection transition table', () => {
  it('allows exactly the documented moves', () => {
    const allowed = CONNECTION_STATUSES.flatMap((from) =>
      CONNECTION_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}→${to}`),
    );
    expect(allowed).toEqual([
      'pending→authenticating',
      'pending→canceled',
      'authenticating→registering',
      'authenticating→disconnected',
      'authenticating→canceled',
      'registering→connected',
      'registering→disconnected',
      'registering→canceled',
      'connected→disconnected',
      'disconnected→authenticating',
    ]);
    expect(TRANSITIONS.canceled).toEqual([]);
    expect(CANCELABLE.every((s) => canTransition(s, 'canceled'))).toBe(true);
    expect(CONNECTION_STATUSES.filter((s) => canTransition(s, 'canceled'))).toEqual([...CANCELABLE]);
  });

  it('refuses a move outside the table before touching the database', async () => {
    const db = new Proxy(
      {},
      {
        get: () => {
          throw new Error('the database was used');
        },
      },
    ) as unknown as Db;
    await expect(transition(db, { connectionId: 'conn_x', from: ['pending'], to: 'connected', reason: null })).rejects.toBeInstanceOf(
      InvalidTransitionError,
    );
    await expect(
      transition(db, { connectionId: 'conn_x', from: ['registering', 'connected'], to: 'canceled', reason: null }),
    ).rejects.toThrow("A connection cannot move from 'connected' to 'canceled'");
    await expect(transition(db, { connectionId: 'conn_x', from: [], to: 'canceled', reason: null })).rejects.toThrow('at least one');
  });
});
