import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiFailure } from '../../src/http/failures.js';
import { answerMayHaveApplied } from '../../src/http/keyed.js';
import { type Failure, failureOf, POLICY, reactionTo } from '../../src/http/policy.js';
import { backoff, nextWait } from '../../src/http/policy-run.js';
import { parseRetryAfter } from '../../src/http/retry-after.js';
import { ConnectionError, ResponseValidationError, TimeoutError, ValidationError } from '../../src/index.js';
import { api } from '../support/api-error.js';
import { FAILURE_LABELS, renderPolicyTable } from '../support/policy-table.js';
import { SETTINGS, scope } from '../support/retry-scope.js';

const retryAction = (retry_action: string) => ({ errorDetails: { retry_action } });

/** An error of each kind the classifier tells apart, with the failure it is: every `Failure` has one. */
const CLASSIFIED: [string, unknown, Failure][] = [
  ['a lost connection', new ConnectionError('x'), 'connection'],
  ['no response in time', new TimeoutError('x'), 'timeout'],
  ['429, even with check_status', api(429, 'rate_limited', retryAction('check_status')), 'rate_limited'],
  ['7.3 409 turn in progress', api(409, 'api_v1_turn_in_progress'), 'in_progress'],
  [
    '7.3 409 idempotency_outcome_unknown',
    api(409, 'api_v1_core_unavailable', { data: { code: 'idempotency_outcome_unknown' } }),
    'outcome_stored',
  ],
  [
    '7.3 503 persistence_failed, even with check_status',
    api(503, 'api_v1_core_unavailable', {
      data: { code: 'persistence_failed' },
      ...retryAction('check_status'),
    }),
    'outcome_stored',
  ],
  [
    '7.3 503 core_unavailable with another data.code is no stored outcome',
    api(503, 'api_v1_core_unavailable', { data: { code: 'idempotency_outcome_unknown' } }),
    'other',
  ],
  [
    '7.3 409 core_unavailable with persistence_failed is no stored outcome',
    api(409, 'api_v1_core_unavailable', { data: { code: 'persistence_failed' } }),
    'other',
  ],
  ['7.3 a stored-outcome code without data', api(409, 'api_v1_core_unavailable'), 'other'],
  [
    '7.3 idempotency_outcome_unknown under another message code',
    api(409, 'api_v1_chat_busy', { data: { code: 'idempotency_outcome_unknown' } }),
    'other',
  ],
  ['7.5 503 interaction backend down', api(503, 'api_v1_interaction_backend_unavailable'), 'backend_down'],
  ['7.5 check_status', api(503, 'api_v1_service_unavailable', retryAction('check_status')), 'check_status'],
  ['7.5 409 not pending', api(409, 'api_v1_action_not_pending'), 'check_status'],
  ['7.5 409 result unknown', api(409, 'api_v1_action_result_unknown'), 'check_status'],
  ['7.5 503 never left', api(503, 'api_v1_service_unavailable', retryAction('retry')), 'outage_503'],
  ['7 a 502 with retry_action retry', api(502, 'upstream_error', retryAction('retry')), 'outage_other'],
  ['7.6 502 core unavailable', api(502, 'api_v1_core_unavailable'), 'undelivered'],
  ['7.6 a 503 core unavailable is not the undelivered cancel', api(503, 'api_v1_core_unavailable'), 'other'],
  [
    '7.3 a 502 with the contract body (a turn failed downstream) is no gateway',
    api(502, 'upstream_error'),
    'other',
  ],
  ['7.3 a 504 turn_timeout is no gateway', api(504, 'turn_timeout'), 'other'],
  [
    '7 a 503 with the contract body and no retry_action is no gateway',
    api(503, 'api_v1_service_unavailable'),
    'other',
  ],
  ['7: a bare 503 (a load balancer)', api(503, 'http_503'), 'gateway'],
  ['7: a bare 502', api(502, 'http_502'), 'gateway'],
  ['7: a bare 504', api(504, 'http_504'), 'gateway'],
  ['7: a bare 408', api(408, 'http_408'), 'gateway'],
  ['7: a bare 500 is no gateway failure', api(500, 'http_500'), 'other'],
  ['7: a bare 404 is no gateway failure', api(404, 'http_404'), 'other'],
  ["7: a code naming another status is not this one's bare code", api(503, 'http_502'), 'other'],
  [
    '7: a bare 503 with retry_action retry keeps its row',
    api(503, 'http_503', retryAction('retry')),
    'outage_503',
  ],
  [
    '7: a bare 502 with retry_action retry keeps its row',
    api(502, 'http_502', retryAction('retry')),
    'outage_other',
  ],
  [
    '7.5: a bare 503 with check_status keeps its row',
    api(503, 'http_503', retryAction('check_status')),
    'check_status',
  ],
  ['7: a bare 429 is rate limited', api(429, 'http_429'), 'rate_limited'],
  [
    'a response off the contract',
    new ResponseValidationError('x', { path: '', body: 1, status: 200 }),
    'other',
  ],
  ['bad input', new ValidationError([{ field: 'a', message: 'b' }]), 'other'],
  ['something else thrown', new TypeError('bug'), 'other'],
  ['nothing at all', undefined, 'other'],
  ['null', null, 'other'],
];

describe('the retry policy: which failure an error is', () => {
  it.each(CLASSIFIED)('%s', (_, error, failure) => {
    expect(failureOf(error)).toBe(failure);
  });

  it('every failure of the policy (each row of the guide’s table) is one the classifier recognises', () => {
    const recognised = new Set(CLASSIFIED.map(([, error]) => failureOf(error)));
    expect([...recognised].sort()).toEqual(Object.keys(FAILURE_LABELS).sort());
  });
});

describe('the retry policy: how each operation meets a failure', () => {
  it('7 a 429 was not processed: every operation repeats it', () => {
    for (const kind of Object.keys(POLICY) as (keyof typeof POLICY)[])
      expect(reactionTo(kind, api(429, 'rate_limited'))).toBe('retry');
  });

  it('a write that lost its response is not repeated (it may have applied); a read is', () => {
    expect(reactionTo('write', new ConnectionError('x'))).toBe('never');
    expect(reactionTo('write', new TimeoutError('x'))).toBe('never');
    expect(reactionTo('repeatable', new ConnectionError('x'))).toBe('retry');
    expect(reactionTo('repeatable', new TimeoutError('x'))).toBe('retry');
  });

  it("7 a gateway's problem details: a 503 is repeated where arriving twice is harmless, a 500 nowhere", () => {
    const problem = (status: number) =>
      apiFailure(status, { title: 'Unavailable', detail: 'try later' }, new Headers());
    const kinds = Object.keys(POLICY) as (keyof typeof POLICY)[];
    expect(kinds.map((kind) => reactionTo(kind, problem(503)))).toEqual(
      kinds.map((kind) => (kind === 'write' ? 'never' : 'retry')),
    );
    expect(kinds.map((kind) => reactionTo(kind, problem(500)))).toEqual(kinds.map(() => 'never'));
    expect(reactionTo('repeatable', apiFailure(500, '<html><title>Oops</title></html>', new Headers()))).toBe(
      'never',
    );
  });

  it("7.3 a turn's 502 or 504 is the key's stored outcome: not repeated, whatever retry_action says", () => {
    expect(reactionTo('turn', api(502, 'upstream_error', retryAction('retry')))).toBe('never');
    expect(reactionTo('turn', api(504, 'turn_timeout', retryAction('retry')))).toBe('never');
    expect(reactionTo('turn', api(503, 'api_v1_service_unavailable', retryAction('retry')))).toBe('retry');
  });

  it('7.3 a running key is polled; a stored outcome is read with the same key', () => {
    expect(reactionTo('turn', api(409, 'api_v1_turn_in_progress'))).toBe('poll');
    const unknown = api(409, 'api_v1_core_unavailable', { data: { code: 'idempotency_outcome_unknown' } });
    expect(reactionTo('turn', unknown)).toBe('read-outcome');
    expect(reactionTo('repeatable', unknown)).toBe('never');
  });

  it('7.5 an answer is resent after a lost response and a backend outage, never after check_status', () => {
    expect(reactionTo('answer', new TimeoutError('x'))).toBe('retry');
    expect(reactionTo('answer', api(503, 'api_v1_interaction_backend_unavailable'))).toBe('retry');
    expect(reactionTo('answer', api(503, 'api_v1_action_result_unknown', retryAction('check_status')))).toBe(
      'never',
    );
    expect(reactionTo('answer', api(409, 'api_v1_action_not_pending'))).toBe('never');
  });

  it('4.6, 7.6 cancel is idempotent: repeated on a timeout as on a 502 and a lost connection', () => {
    expect(reactionTo('cancel', new TimeoutError('x'))).toBe('retry');
    expect(reactionTo('cancel', new ConnectionError('x'))).toBe('retry');
    expect(reactionTo('cancel', api(502, 'api_v1_core_unavailable'))).toBe('retry');
    expect(reactionTo('cancel', api(404, 'api_v1_not_found'))).toBe('never');
    expect(reactionTo('repeatable', api(502, 'api_v1_core_unavailable'))).toBe('never');
  });

  it.each([
    ['repeatable', 'retry'],
    ['write', 'never'],
    ['turn', 'retry'],
    ['answer', 'retry'],
    ['cancel', 'retry'],
  ] as const)('7: a bare gateway failure: %s -> %s', (kind, reaction) => {
    for (const status of [408, 502, 503, 504])
      expect(reactionTo(kind, api(status, `http_${status}`)), String(status)).toBe(reaction);
  });

  it("7.3 a turn's 502 with the contract body is still its stored outcome; a bare one is retried with the key", () => {
    expect(reactionTo('turn', api(502, 'upstream_error'))).toBe('never');
    expect(reactionTo('turn', api(504, 'turn_timeout'))).toBe('never');
    expect(reactionTo('turn', api(502, 'http_502'))).toBe('retry');
    expect(reactionTo('turn', api(504, 'http_504'))).toBe('retry');
  });

  it('the client guide\'s "What is retried" table is the policy table', () => {
    const guide = readFileSync(new URL('../../docs/client.md', import.meta.url), 'utf8');
    const section = guide.split('### What is retried')[1]?.split('\n## ')[0] ?? '';
    const table = section
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .join('\n');
    expect(table, `the table in docs/client.md should read:\n${renderPolicyTable()}`).toBe(
      renderPolicyTable(),
    );
  });
});

describe('the retry policy: after a failed answer, may the interaction be resolved?', () => {
  it.each([
    ['no response (connection lost)', new ConnectionError('reset'), true],
    ['no response (timeout)', new TimeoutError('slow'), true],
    ['7.5 409 api_v1_action_not_pending', api(409, 'api_v1_action_not_pending'), true],
    ['7.5 409 api_v1_action_result_unknown', api(409, 'api_v1_action_result_unknown'), true],
    [
      '7.5 503 with retry_action check_status',
      api(503, 'api_v1_action_result_unknown', { errorDetails: { retry_action: 'check_status' } }),
      true,
    ],
    ['7.5 404 api_v1_action_not_found', api(404, 'api_v1_action_not_found'), false],
    [
      '7.5 503 that never left (retry_action retry)',
      api(503, 'api_v1_service_unavailable', { errorDetails: { retry_action: 'retry' } }),
      false,
    ],
    ['a refusal before sending', new ValidationError([{ field: 'content', message: 'is required' }]), false],
    ["7.5: a gateway's bare 504 (the service may have got it)", api(504, 'http_504'), true],
    ["7.5: a gateway's bare 503", api(503, 'http_503'), true],
    ['7.5: a bare 500 of the service', api(500, 'http_500'), false],
  ])('%s -> %s', (_, error, may) => {
    expect(answerMayHaveApplied(error)).toBe(may);
  });
});

describe("the one backoff (p-retry's formula, for the wait before a re-open)", () => {
  it('doubles from minDelayMs, with up to as much again of jitter, in whole ms', () => {
    expect(backoff(1, SETTINGS, 0)).toBe(500);
    expect(backoff(2, SETTINGS, 0)).toBe(1_000);
    expect(backoff(3, SETTINGS, 0.5)).toBe(3_000);
    expect(backoff(1, SETTINGS, 0.999)).toBe(1_000);
    expect(backoff(1, { minDelayMs: 3, maxDelayMs: 100 }, 0.1)).toBe(3);
  });

  it('never waits more than maxDelayMs', () => {
    expect(backoff(5, SETTINGS, 0)).toBe(8_000);
    expect(backoff(4, SETTINGS, 0.5)).toBe(6_000);
    expect(backoff(4, SETTINGS, 0.999)).toBe(7_996);
    expect(backoff(5, SETTINGS, 0.001)).toBe(8_000);
    expect(backoff(40, SETTINGS, 0.999)).toBe(8_000);
    expect(backoff(3, { minDelayMs: 1, maxDelayMs: 3.5 }, 0)).toBe(3.5);
  });

  it('draws its jitter from Math.random when none is given', () => {
    const wait = backoff(1, SETTINGS);
    expect(wait).toBeGreaterThanOrEqual(500);
    expect(wait).toBeLessThanOrEqual(1_000);
  });
});

describe('the wait before the next attempt', () => {
  const now = 1_000_000;
  const lost = new ConnectionError('x');

  it("is p-retry's backoff when no Retry-After asks for more", () => {
    expect(nextWait(lost, 500, false, scope(), now, now)).toBe(500);
    expect(nextWait(lost, 1_234, true, scope({ kind: 'turn' }), now, now)).toBe(1_234);
  });

  it('Retry-After is honoured when longer than the backoff, and not added to it', () => {
    const asked = api(429, 'rate_limited', { retryAfterMs: 3_000 });
    expect(nextWait(asked, 500, false, scope(), now, now)).toBe(3_000);
    const short = api(429, 'rate_limited', { retryAfterMs: 1 });
    expect(nextWait(short, 700, false, scope(), now, now)).toBe(700);
  });

  it('a Retry-After longer than maxRetryAfter ends the call now', () => {
    const at = (ms: number) => api(429, 'rate_limited', { retryAfterMs: ms });
    expect(nextWait(at(60_000), 500, false, scope({}, { timeoutMs: 120_000 }), now, now)).toBe(60_000);
    expect(nextWait(at(60_001), 500, false, scope({}, { timeoutMs: 120_000 }), now, now)).toBeUndefined();
    expect(nextWait(at(5_000), 500, false, scope({}, { maxRetryAfterMs: 4_999 }), now, now)).toBeUndefined();
  });

  it('no Retry-After wait is set past what a timer holds, whatever maxRetryAfter allows', () => {
    const huge = api(503, 'x', { retryAfterMs: 2 ** 31, ...retryAction('retry') });
    const open = { maxRetryAfterMs: Number.POSITIVE_INFINITY, timeoutMs: Number.POSITIVE_INFINITY };
    expect(nextWait(huge, 500, false, scope({}, open), now, now)).toBeUndefined();
    const largest = api(503, 'x', { retryAfterMs: 2 ** 31 - 1, ...retryAction('retry') });
    expect(nextWait(largest, 500, false, scope({}, open), now, now)).toBe(2 ** 31 - 1);
  });

  it("a Retry-After wait ends within the call's timeout, counted from its first attempt", () => {
    const asked = api(429, 'rate_limited', { retryAfterMs: 1_000 });
    const budget = scope({}, { timeoutMs: 5_000 });
    expect(nextWait(asked, 500, false, budget, now, now + 4_000)).toBe(1_000);
    expect(nextWait(asked, 500, false, budget, now, now + 4_001)).toBeUndefined();
    // Without Retry-After the backoff alone is bounded by maxDelayMs, not by the timeout.
    expect(nextWait(lost, 500, false, budget, now, now + 4_999)).toBe(500);
  });

  it("7.3 a poll's Retry-After is bounded by the polling deadline, not by the timeout of one request", () => {
    const running = api(409, 'api_v1_turn_in_progress', { retryAfterMs: 2_000 });
    const polling = scope({ kind: 'turn', deadline: now + 10_000 }, { timeoutMs: 1_000 });
    expect(nextWait(running, 500, true, polling, now, now)).toBe(2_000);
    expect(nextWait(running, 500, false, polling, now, now)).toBeUndefined();
    expect(nextWait(running, 500, true, { ...polling, deadline: now + 1_999 }, now, now)).toBeUndefined();
  });

  it("no wait ends past the scope's deadline (an interaction's, a poll's)", () => {
    expect(nextWait(lost, 500, false, scope({ deadline: now + 500 }), now, now)).toBe(500);
    expect(nextWait(lost, 500, false, scope({ deadline: now + 499 }), now, now)).toBeUndefined();
    const asked = api(503, 'x', { retryAfterMs: 2_000, ...retryAction('retry') });
    expect(nextWait(asked, 500, false, scope({ deadline: now + 1_999 }), now, now)).toBeUndefined();
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-11-24T00:00:00Z');

  it('delta-seconds, whole or fractional, with surrounding space', () => {
    expect(parseRetryAfter('1', now)).toBe(1_000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('0.25', now)).toBe(250);
    expect(parseRetryAfter('0', now)).toBe(0);
  });

  it('an HTTP date, counted from now; a past date is 0', () => {
    expect(parseRetryAfter('Tue, 24 Nov 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 23:00:00 GMT', now)).toBe(0);
  });

  it('an HTTP date in another form RFC 9110 accepts: without the weekday, or asctime', () => {
    expect(parseRetryAfter('24 Nov 2026 00:00:30 GMT', now)).toBe(30_000);
    const asctime = 'Tue Nov 24 00:00:30 2026';
    const at = Date.parse(asctime);
    expect(parseRetryAfter(asctime, at - 30_000)).toBe(30_000);
  });

  it('a huge value is returned as it is, for the policy to refuse', () => {
    expect(parseRetryAfter('1e10', now)).toBe(1e13);
  });

  it('negative, non-finite, empty and junk values ask for no wait', () => {
    for (const junk of ['-5', '-0.5', 'Infinity', '1e400', 'soon', '', '   ', '1.2.3', null])
      expect(parseRetryAfter(junk, now), String(junk)).toBeUndefined();
  });

  it('counts from the current time by default', () => {
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(parseRetryAfter(inAMinute)).toBeGreaterThan(58_000);
    expect(parseRetryAfter(inAMinute)).toBeLessThanOrEqual(60_000);
  });
});
