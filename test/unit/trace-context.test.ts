import { describe, expect, it } from 'vitest';
import { traceIdOf } from '../../src/mock/inspector/trace-context.js';

// The inspector's reading of a request's W3C `traceparent` (Trace Context level 1, 3.2).
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

describe('traceIdOf', () => {
  it('reads the trace id of a version 00 traceparent, sampled or not, around spaces', () => {
    expect(traceIdOf(`00-${TRACE}-${PARENT}-01`)).toBe(TRACE);
    expect(traceIdOf(` 00-${TRACE}-${PARENT}-00 `)).toBe(TRACE);
  });

  it('ids that only start or end with zeros are ids', () => {
    for (const id of [`${TRACE.slice(0, 28)}0000`, `0000${TRACE.slice(4)}`])
      expect(traceIdOf(`00-${id}-${PARENT}-01`)).toBe(id);
    for (const parent of [`${PARENT.slice(0, 12)}0000`, `0000${PARENT.slice(4)}`])
      expect(traceIdOf(`00-${TRACE}-${parent}-01`)).toBe(TRACE);
  });

  it('a later version may append fields of any length; version 00 may not', () => {
    expect(traceIdOf(`01-${TRACE}-${PARENT}-01-ab`)).toBe(TRACE);
    expect(traceIdOf(`01-${TRACE}-${PARENT}-01-`)).toBe(TRACE);
  });

  it('a later version may append fields; version 00 may not', () => {
    expect(traceIdOf(`01-${TRACE}-${PARENT}-01-more`)).toBe(TRACE);
    expect(traceIdOf(`00-${TRACE}-${PARENT}-01-more`)).toBeUndefined();
  });

  it.each([
    ['none', null],
    ['empty', ''],
    ['version ff', `ff-${TRACE}-${PARENT}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${PARENT}-01`],
    ['an all-zero parent id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['upper case', `00-${TRACE.toUpperCase()}-${PARENT}-01`],
    ['a short trace id', `00-${TRACE.slice(1)}-${PARENT}-01`],
    ['a long parent id', `00-${TRACE}-${PARENT}0-01`],
    ['one zero as parent id', `00-${TRACE}-0-01`],
    ['missing flags', `00-${TRACE}-${PARENT}`],
    ['text before', `x00-${TRACE}-${PARENT}-01`],
    ['text before a later version', `x01-${TRACE}-${PARENT}-01`],
    ['text after the flags of a later version', `01-${TRACE}-${PARENT}-01x`],
  ])('%s is no trace id', (_, header) => {
    expect(traceIdOf(header)).toBeUndefined();
  });
});
