import { describe, expect, it } from 'vitest';
import { createRequestLogBuffer, type RequestLogEntry } from './request-log-buffer.js';
import type { NewRequestLogRow } from './request-logs.repository.js';

const entry = (status = 200, errorPayload: string | null = null): RequestLogEntry => ({
  platform_id: 'plt_1',
  created_at: new Date('2026-11-29T10:00:00Z'),
  method: 'GET',
  path: '/legal_entity',
  route: '/legal_entity',
  status,
  duration_ms: 1.5,
  request_id: 'r1',
  idempotency_key: null,
  legal_entity_id: 'le_1',
  api_key_id: null,
  errorPayload,
});

function recorder(fail = false) {
  const batches: NewRequestLogRow[][] = [];
  const warnings: string[] = [];
  const settings = {
    insert: async (rows: readonly NewRequestLogRow[]) => {
      if (fail) throw new Error('database down');
      batches.push([...rows]);
    },
    warn: (m: string) => warnings.push(m),
    intervalMs: 3_600_000, // never in a test: flushes are driven by size and close
  };
  return { batches, warnings, settings };
}

describe('request logs: the write buffer', () => {
  it('writes a batch when it is full, the rest on close, one multi-row insert each', async () => {
    const r = recorder();
    const buffer = createRequestLogBuffer({ ...r.settings, batchSize: 3 });
    for (let i = 0; i < 4; i++) buffer.push(entry());
    await buffer.flush();
    expect(r.batches.map((b) => b.length)).toEqual([3, 1]);
    buffer.push(entry(422, '{"detail":[{"loc":["body","ssn"],"input":"123-45-6789"}]}'));
    expect(buffer.pending).toBe(1);
    await buffer.close();
    const last = r.batches.at(-1)![0]!;
    expect(last.id).toMatch(/^req_/);
    expect(JSON.parse(last.error!)).toEqual({ detail: [{ loc: ['body', 'ssn'], input: '[redacted]' }] });
    buffer.push(entry()); // after close: ignored
    expect(buffer.pending).toBe(0);
  });

  it('drops (and reports) a batch the database refuses, and entries beyond its bound', async () => {
    const r = recorder(true);
    const buffer = createRequestLogBuffer({ ...r.settings, batchSize: 100, maxBuffered: 2 });
    for (let i = 0; i < 5; i++) buffer.push(entry());
    await buffer.close();
    expect(r.warnings).toEqual([
      'request logs: 2 entries not written (database down)',
      'request logs: 3 entries dropped while 2 were waiting to be written',
    ]);
  });
});
