import { describe, expect, it } from 'vitest';
import { MAX_RECORDS, type TurnRecord } from '../../src/ai/index.js';
import { boundedRecords } from '../../src/ai/records.js';

const record = (n: number): TurnRecord => ({
  messageId: `m${n}`,
  idempotencyKey: `k${n}`,
  body: { content: 'x'.repeat(100) },
});

describe("the transport's default record store", () => {
  it(`keeps the last turns of at most MAX_RECORDS (${MAX_RECORDS}) chats, least recently used forgotten first`, () => {
    const records = boundedRecords();
    for (let n = 0; n < MAX_RECORDS; n++) records.set(`chat${n}`, record(n));
    expect(records.get('chat0')).toEqual(record(0)); // used: now the most recent
    records.set('new', record(-1));
    expect(records.get('chat1')).toBeUndefined();
    expect(records.get('chat0')).toEqual(record(0));
    expect(records.get('new')).toEqual(record(-1));
    for (let n = 0; n < 3 * MAX_RECORDS; n++) records.set(`more${n}`, record(n));
    let kept = 0;
    for (let n = 0; n < 3 * MAX_RECORDS; n++) if (records.get(`more${n}`)) kept++;
    expect(kept).toBe(MAX_RECORDS);
  });

  it('forgets a chat on delete', () => {
    const records = boundedRecords(2);
    records.set('a', record(1));
    records.delete?.('a');
    expect(records.get('a')).toBeUndefined();
  });
});
