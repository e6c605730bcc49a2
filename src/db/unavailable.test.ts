import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { createOutageLog, isDatabaseError, isDatabaseUnavailable } from './unavailable.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const sqlError = (code: string, message = 'x') => Object.assign(new pg.DatabaseError(message, 0, 'error'), { code, severity: 'FATAL' });

describe('isDatabaseUnavailable', () => {
  it('recognises a database that is down, restarting or out of reach', () => {
    for (const error of [
      withCode('ECONNREFUSED'),
      withCode('ECONNRESET'),
      withCode('ETIMEDOUT'),
      withCode('ENOTFOUND'),
      sqlError('57P01', 'terminating connection due to administrator command'),
      sqlError('57P02'),
      sqlError('57P03', 'the database system is starting up'),
      sqlError('08006'),
      sqlError('08001'),
      sqlError('53300'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
      new Error('wrapped', { cause: withCode('ECONNRESET') }),
    ])
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
  });

  it('leaves every other error alone: those are bugs or bad input, not an outage', () => {
    for (const error of [
      sqlError('23505', 'duplicate key'),
      sqlError('40P01', 'deadlock detected'),
      sqlError('42P01'),
      sqlError('22P02'),
      new Error('boom'),
      new TypeError('x is undefined'),
      withCode('ENOENT'),
      null,
      undefined,
      'ECONNREFUSED',
      { code: 42 },
    ])
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
  });

  it('isDatabaseError also covers SQL errors, not application errors', () => {
    expect(isDatabaseError(sqlError('40P01'))).toBe(true);
    expect(isDatabaseError(withCode('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseError(withCode('ERR_ASSERTION'))).toBe(false);
    expect(isDatabaseError(new Error('boom'))).toBe(false);
  });
});

describe('createOutageLog', () => {
  it('logs the first failure at once, then at most one line per interval with the count left out', () => {
    const lines: string[] = [];
    let now = 0;
    const report = createOutageLog(
      (line) => lines.push(line),
      10_000,
      () => now,
    );
    report('GET /x', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'));
    for (now = 1; now < 10_000; now += 1_000) report('GET /x', withCode('ECONNREFUSED'));
    expect(lines).toEqual(['database unavailable (GET /x): ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5432']);
    now = 10_000;
    report('job queue', sqlError('57P03', 'the database system is starting up'));
    expect(lines[1]).toBe('database unavailable (job queue): 57P03: the database system is starting up (10 more since the last report)');
  });
});
