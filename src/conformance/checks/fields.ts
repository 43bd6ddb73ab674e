import { expectThat, show } from '../verdict.js';
import type { Answer } from '../wire.js';

/** An ISO 8601 date-time in UTC: `Z` or a zero offset (2.1). */
const UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]00:?00)$/i;

/** Fails unless each of `fields` of `record` is a date-time in UTC (2.1: "Timestamps are ... in UTC"). */
export function expectUtc(answer: Answer, record: Record<string, unknown>, fields: readonly string[]): void {
  for (const field of fields) {
    const value = record[field];
    expectThat(
      typeof value === 'string' && UTC.test(value) && !Number.isNaN(Date.parse(value)),
      `${field} an ISO 8601 date-time in UTC (2.1)`,
      () => `${field} ${show(value)}`,
      answer,
    );
  }
}
