import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Client,
  type ClientOptions,
  RelayedTurnStream,
  type RequestOptions,
  type StreamOptions,
  ValidationError,
} from '../../src/index.js';
import { fakeClient } from '../support/fake-client.js';
import { fakeFetch, ok, skill } from '../support/fake-fetch.js';
import { CHAT, sseResponse, sseText, turnEvents } from '../support/sse.js';
import { surfaced } from '../support/surfaced.js';

/**
 * Every numeric option is checked where it is given, before anything is sent: a client option when the
 * client is built (`new Client`, `withOptions`), a call's option when the call runs (its promise rejects, its
 * stream fails at the first read). The error is a `ValidationError` naming the option and its range.
 */

const MAX_TIMER = 2 ** 31 - 1;

/** The range each option states, as the message says it, and values outside it. */
const RANGES = {
  timeout: { message: 'must be a finite number of ms from 1 to 2147483647', edges: [1, MAX_TIMER] },
  maxRetries: { message: 'must be an integer from 0 to 10', edges: [0, 10] },
  'retryDelay.min': { message: 'must be a finite number of ms from 0 to 2147483647', edges: [0, MAX_TIMER] },
  'retryDelay.max': { message: 'must be a finite number of ms from 0 to 2147483647', edges: [0, MAX_TIMER] },
  maxRetryAfter: { message: 'must be a finite number of ms from 0 to 2147483647', edges: [0, MAX_TIMER] },
  maxResponseBytes: {
    message: 'must be an integer number of bytes from 1 to 9007199254740991',
    edges: [1, Number.MAX_SAFE_INTEGER],
  },
  idleTimeout: { message: 'must be a finite number of ms from 1 to 2147483647', edges: [1, MAX_TIMER] },
  maxResumes: { message: 'must be an integer from 0 to 100', edges: [0, 100] },
} as const;

type Option = keyof typeof RANGES;

/** NaN, the infinities, -1, 2^31 (one past what a timer holds), 1.5 for whole numbers, a numeric string. */
function badValues(option: Option): unknown[] {
  const values: unknown[] = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, '100'];
  if (option === 'maxResponseBytes') values.push(0, 1.5, 2 ** 53);
  else values.push(2 ** 31, RANGES[option].edges[1] + 1);
  if (option === 'maxRetries' || option === 'maxResumes') values.push(1.5);
  if (option === 'timeout' || option === 'idleTimeout') values.push(0);
  return values;
}

/** `{ retryDelay: { min: value } }` for `retryDelay.min`, `{ option: value }` otherwise. */
function optionsWith(option: string, value: unknown): Record<string, unknown> {
  const [name, part] = option.split('.');
  return { [name!]: part ? { [part]: value } : value };
}

function expectRefused(error: unknown, option: Option): void {
  expect(error, option).toBeInstanceOf(ValidationError);
  expect((error as ValidationError).field).toBe(option);
  expect((error as ValidationError).message).toBe(`${option}: ${RANGES[option].message}`);
}

let warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
beforeEach(() => {
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(() => {
  process.off('warning', onWarning);
});

/**
 * Whether a call ran with its options: it resolved, or failed as a sent call does (a 1-byte
 * `maxResponseBytes` stops reading the body: `ResponseTooLargeError`), never with a `ValidationError`.
 */
async function sent(call: PromiseLike<unknown>): Promise<boolean> {
  return Promise.resolve(call).then(
    () => true,
    (error: unknown) =>
      !(error instanceof ValidationError) && (error as Error).name === 'ResponseTooLargeError',
  );
}

function counting() {
  const { fetch, requests } = fakeFetch(ok(skill()));
  return { fetch, requests };
}

describe('client options', () => {
  const CLIENT: Option[] = [
    'timeout',
    'maxRetries',
    'retryDelay.min',
    'retryDelay.max',
    'maxRetryAfter',
    'maxResponseBytes',
  ];

  for (const option of CLIENT) {
    it(`${option}: out of range is a ValidationError from new Client() and withOptions()`, () => {
      const { fetch, requests } = counting();
      const base = fakeClient(fetch);
      for (const value of badValues(option)) {
        const options = optionsWith(option, value) as ClientOptions;
        expectRefused(
          (() => {
            try {
              fakeClient(fetch, options);
            } catch (error) {
              return error;
            }
          })(),
          option,
        );
        expect(() => base.withOptions(options), String(value)).toThrow(ValidationError);
      }
      expect(requests).toHaveLength(0);
    });

    it(`${option}: the edges of its range are accepted, and a call runs with them`, async () => {
      for (const value of RANGES[option].edges) {
        const { fetch, requests } = counting();
        const options = optionsWith(option, value) as ClientOptions;
        const client = fakeClient(fetch, options);
        expect(await sent(client.skills.get(1)), `${option} ${value}`).toBe(true);
        expect(requests).toHaveLength(1);
      }
      expect(warnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning');
    });
  }

  it("the issue's cases: timeout Infinity and maxRetries NaN are refused before any request", () => {
    const { fetch, requests } = counting();
    for (const options of [{ timeout: Infinity }, { maxRetries: Number.NaN }, { timeout: 2 ** 31 }]) {
      expect(() => fakeClient(fetch, options)).toThrow(ValidationError);
    }
    expect(requests).toHaveLength(0);
  });
});

/** One call per path a request takes (plain, list, sync turn, stream, handler loop, answer, cancel). */
const CALLS: Record<string, (client: Client, options: StreamOptions) => unknown> = {
  'skills.get': (c, o) => c.skills.get(1, o),
  'skills.list': (c, o) => c.skills.list({}, o),
  'skills.list (iterated)': (c, o) => c.skills.list({}, o)[Symbol.asyncIterator](),
  'chats.messages': (c, o) => c.chats.messages(CHAT, {}, o),
  'turns.send': (c, o) => c.turns.send(CHAT, { content: 'x' }, o),
  'turns.stream': (c, o) => c.turns.stream(CHAT, { content: 'x' }, o),
  'turns.run': (c, o) => c.turns.run(CHAT, { content: 'x' }, o),
  'turns.cancel': (c, o) => c.turns.cancel(CHAT, {}, o),
  'actions.respondPlan': (c, o) => c.actions.respondPlan(CHAT, { action_id: 'a', action: 'approve' }, o),
};

const STREAMING = new Set(['turns.stream', 'turns.run']);

describe('per-call options', () => {
  const PER_CALL: Option[] = ['timeout', 'maxRetries', 'maxRetryAfter', 'maxResponseBytes'];

  for (const [name, call] of Object.entries(CALLS)) {
    const options: Option[] = STREAMING.has(name) ? [...PER_CALL, 'idleTimeout', 'maxResumes'] : PER_CALL;
    it(`${name}: each numeric option out of range fails the call where its errors surface, nothing sent`, async () => {
      const { fetch, requests } = counting();
      const client = fakeClient(fetch);
      for (const option of options) {
        for (const value of badValues(option)) {
          const result = await surfaced(() => call(client, optionsWith(option, value) as RequestOptions));
          expect(result.threw, `${option} ${String(value)}`).toBe(false);
          expectRefused(result.error, option);
        }
      }
      expect(requests).toHaveLength(0);
      expect(warnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning');
    });
  }

  it('the edges of each range are accepted on a call', async () => {
    const { fetch, requests } = counting();
    const client = fakeClient(fetch);
    for (const option of PER_CALL) {
      for (const value of RANGES[option].edges) {
        expect(await sent(client.skills.get(1, optionsWith(option, value))), `${option} ${value}`).toBe(true);
      }
    }
    expect(requests).toHaveLength(PER_CALL.length * 2);
    expect(warnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning');
  });

  it("the issue's case: maxRetries NaN on a refused connection sends nothing (it retried 900 times)", async () => {
    const { fetch, requests } = fakeFetch(new TypeError('fetch failed'));
    const client = fakeClient(fetch, { retryDelay: { min: 0, max: 0 } });
    await expect(client.skills.get(1, { maxRetries: Number.NaN })).rejects.toBeInstanceOf(ValidationError);
    expect(requests).toHaveLength(0);
  });
});

describe('a relayed stream', () => {
  it('idleTimeout out of range fails the first read, and no timer is armed with it', async () => {
    for (const value of badValues('idleTimeout')) {
      const body = new ReadableStream<Uint8Array>();
      const stream = RelayedTurnStream.fromReadableStream(body, { idleTimeout: value as number });
      const result = await surfaced(() => stream);
      expectRefused(result.error, 'idleTimeout');
    }
    expect(warnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning');
  });

  it('idleTimeout at 2^31-1 reads the relay to its end', async () => {
    const body = sseResponse(sseText(turnEvents(['Hi']))).body!;
    const stream = RelayedTurnStream.fromReadableStream(body, { idleTimeout: MAX_TIMER });
    await expect(stream.finalTurn()).resolves.toMatchObject({ content: 'Hi' });
    expect(warnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning');
  });
});

describe('stream options', () => {
  it('the edges of idleTimeout and maxResumes are accepted: the turn is read to its end', async () => {
    for (const options of [
      { idleTimeout: 1_000, maxResumes: 0 },
      { idleTimeout: MAX_TIMER, maxResumes: 100 },
    ]) {
      const { fetch, requests } = fakeFetch(sseResponse(sseText(turnEvents(['Hi']))));
      const client = fakeClient(fetch);
      await expect(client.turns.stream(CHAT, { content: 'x' }, options).finalTurn()).resolves.toMatchObject({
        content: 'Hi',
      });
      expect(requests).toHaveLength(1);
    }
    expect(warnings.map((w) => w.name)).not.toContain('TimeoutOverflowWarning');
  });

  it("the issue's case: idleTimeout Infinity (a 1 ms timer loop) is refused before the stream is opened", async () => {
    const { fetch, requests } = fakeFetch(sseResponse(sseText(turnEvents(['Hi']))));
    const client = fakeClient(fetch);
    const stream = client.turns.stream(CHAT, { content: 'x' }, { idleTimeout: Number.POSITIVE_INFINITY });
    await expect(stream.finalTurn()).rejects.toBeInstanceOf(ValidationError);
    expect(requests).toHaveLength(0);
  });
});

describe('baseUrl', () => {
  it('with userinfo is refused at construction, quoting neither the user nor the password', () => {
    const base = new Client({ baseUrl: 'https://api.test', token: 't' });
    for (const baseUrl of [
      'http://user:pw@host',
      'https://user:pw@convo.example.com/prefix',
      'http://user:pw@host/api/v1',
      'http://:pw@host',
    ]) {
      for (const build of [() => new Client({ baseUrl, token: 't' }), () => base.withOptions({ baseUrl })]) {
        let error: unknown;
        try {
          build();
        } catch (thrown) {
          error = thrown;
        }
        expect(error, baseUrl).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).field).toBe('baseUrl');
        for (const shown of [(error as Error).message, JSON.stringify(error), inspect(error)]) {
          expect(shown).not.toContain('pw');
          expect(shown).not.toContain('user:');
        }
      }
    }
    expect(() => new Client({ baseUrl: 'http://user@host', token: 't' })).toThrow(/user name or password/);
  });
});
