import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../lib/errors.js';
import {
  isSensitiveName,
  parseStatusFilter,
  parseTime,
  pathOf,
  redactErrorBody,
  routePattern,
  storedErrorBody,
} from './request-logs.fns.js';

describe('request logs: the rules', () => {
  it('names sensitive fields by part or exactly', () => {
    for (const name of [
      'ssn',
      'owner_ssn',
      'password',
      'new-password',
      'secrets',
      'totp_seed',
      'access_token',
      'api_key',
      'EIN',
      'tin',
      'security_answers',
    ]) {
      expect(isSensitiveName(name), name).toBe(true);
    }
    for (const name of ['business_name', 'einstein', 'region', 'status', 'destination', 0])
      expect(isSensitiveName(name), String(name)).toBe(false);
  });

  it('redacts issues about sensitive fields, sensitive keys at any depth and secret-shaped strings', () => {
    const body = {
      detail: [
        { type: 'string_pattern_mismatch', loc: ['body', 'ein'], msg: 'bad', input: '12-34567890' },
        { type: 'missing', loc: ['body'], msg: 'Field required', input: { business_name: 'A', owner: { ssn: '1', name: 'B' } } },
        { type: 'value_error', loc: ['body', 'notes'], msg: 'bad', input: 'call 123-45-6789 or 123456789, key sh_key_abc, Bearer xyz' },
        { type: 'int_parsing', loc: ['query', 'limit'], msg: 'bad', input: 'ten' },
      ],
      body: { password: 'p', nested: [{ api_token: 't' }] },
    };
    expect(redactErrorBody(body)).toEqual({
      detail: [
        { type: 'string_pattern_mismatch', loc: ['body', 'ein'], msg: 'bad', input: '[redacted]' },
        { type: 'missing', loc: ['body'], msg: 'Field required', input: { business_name: 'A', owner: { ssn: '[redacted]', name: 'B' } } },
        { type: 'value_error', loc: ['body', 'notes'], msg: 'bad', input: 'call [redacted] or [redacted], key [redacted], [redacted]' },
        { type: 'int_parsing', loc: ['query', 'limit'], msg: 'bad', input: 'ten' },
      ],
      body: { password: '[redacted]', nested: [{ api_token: '[redacted]' }] },
    });
  });

  it('stores JSON error bodies redacted, a note otherwise, and never a NUL (jsonb refuses it)', () => {
    expect(storedErrorBody('{"detail":"Not Found"}')).toEqual({ detail: 'Not Found' });
    expect(storedErrorBody('<html>')).toEqual({ detail: '[a non-JSON body of 6 characters, not kept]' });
    expect(storedErrorBody(JSON.stringify({ detail: 'a\u0000b' }))).toEqual({ detail: 'ab' });
    expect(JSON.stringify(storedErrorBody(JSON.stringify({ detail: 'x'.repeat(40_000) })))).toMatch(/not kept/);
  });

  it('route patterns, paths, status filters and times', () => {
    expect(routePattern('/v2/webhook_endpoints/:endpoint_id/deliveries/:delivery_id')).toBe(
      '/v2/webhook_endpoints/{endpoint_id}/deliveries/{delivery_id}',
    );
    expect(pathOf('/v2/tasks?page_size=5')).toBe('/v2/tasks');
    expect(parseStatusFilter('404')).toEqual({ code: 404 });
    expect(parseStatusFilter('4xx')).toEqual({ class: 4 });
    expect(parseStatusFilter('5XX')).toEqual({ class: 5 });
    for (const bad of ['4x', '600', 'abc', '40']) expect(() => parseStatusFilter(bad)).toThrow(InvalidInputError);
    expect(parseTime('t', '2026-11-29T10:00:00Z').toISOString()).toBe('2026-11-29T10:00:00.000Z');
    expect(parseTime('t', '2026-11-29T10:00:00.5+01:00').toISOString()).toBe('2026-11-29T09:00:00.500Z');
    expect(parseTime('t', '2026-11-29').toISOString()).toBe('2026-11-29T00:00:00.000Z');
    for (const bad of ['yesterday', '2026-11-29T10:00:00', '2026-13-40']) expect(() => parseTime('t', bad)).toThrow(InvalidInputError);
  });
});
