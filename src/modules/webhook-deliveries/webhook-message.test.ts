import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { toPlatformEvent } from '../events/event-feed.js';
import { signedHeaders } from './webhook-message.js';

const current = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
const previous = `whsec_${Buffer.alloc(24, 2).toString('base64')}`;
const other = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;

describe('webhook message', () => {
  const event = toPlatformEvent({
    id: 'evt_1',
    type: 'task.updated',
    created_at: new Date('2026-11-25T10:00:00.123Z'),
    legal_entity_id: 'le_1',
    data: { object: { id: 'task_1' }, changed: ['status'] },
  });
  const body = JSON.stringify(event);

  it('is the event as the API shows it', () => {
    expect(event).toEqual({
      id: 'evt_1',
      type: 'task.updated',
      created_at: '2026-11-25T10:00:00.123Z',
      legal_entity_id: 'le_1',
      data: { object: { id: 'task_1' }, changed: ['status'] },
    });
  });

  it('carries one signature per secret, each verifying with its own secret only', () => {
    const headers = signedHeaders('evt_1', body, [current, previous], new Date());
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(event);
    expect(new Webhook(previous).verify(body, headers)).toEqual(event);
    expect(() => new Webhook(other).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(body.replace('task_1', 'task_2'), headers)).toThrow();
  });

  it('is refused by receivers once its timestamp is too old (a replay)', () => {
    const headers = signedHeaders('evt_1', body, [current], new Date(Date.now() - 10 * 60_000));
    expect(() => new Webhook(current).verify(body, headers)).toThrow(/timestamp/i);
  });
});
