import { describe, expect, it, vi } from 'vitest';
import {
  type Logger,
  type RelayedInteraction,
  RelayedTurnStream,
  type StreamEvent,
  UnreadableTerminalError,
} from '../../src/index.js';
import { collect } from '../support/collect.js';
import { fakeClient } from '../support/fake-client.js';
import { type FakeFetch, fakeFetch } from '../support/fake-fetch.js';
import { CHAT, finished, sseResponse, sseText, type WireEvent } from '../support/sse.js';

// What a stream shows across its connections (6; 4.4: a re-opened stream re-delivers the stored outcome
// from the beginning, and the caller sees each event once).

const START: WireEvent = ['message.start', { chat_id: CHAT, message_id: 7, request_id: 'req-1' }];
const DONE: WireEvent = ['message.completed', finished('')];
const TOOL: WireEvent = [
  'message.action_required',
  {
    kind: 'tool_approval',
    action_id: 'act_1',
    payload: { tools: [{ tool_use_id: 'toolu_1', name: 'search', server: 'github', input: {} }] },
  },
];
const step = (key: string, status = 'done'): WireEvent => [
  'message.step',
  { steps: [{ key, label: key, label_code: key, status, timestamp: '2026-01-01T00:00:00.000Z' }] },
];

function client(fetch: FakeFetch, logger?: Logger) {
  return fakeClient(fetch, { retryDelay: { min: 1, max: 2 }, ...(logger ? { logger } : {}) });
}

/** The events of a streamed turn over the given connections (each a list of wire events; all but the last break). */
async function read(connections: WireEvent[][], logger?: Logger) {
  const { fetch, requests } = fakeFetch(...connections.map((wire) => sseResponse(sseText(wire))));
  const events: StreamEvent<unknown>[] = [];
  let error: unknown;
  try {
    for await (const event of client(fetch, logger).turns.stream(CHAT, { content: 'x' })) events.push(event);
  } catch (caught) {
    error = caught;
  }
  return { events, error, requests, types: events.map((e) => e.type) };
}

const stepKeys = (events: StreamEvent<unknown>[]) =>
  events.flatMap((e) => (e.type === 'step' ? [e.steps.map((s) => `${s.key}:${s.status}`)] : []));

describe('a re-opened stream shows each event once', () => {
  it('4.4 a step event wholly replayed is not shown again, not even as an empty step event', async () => {
    const { events, requests } = await read([
      [START, step('a')],
      [START, step('a'), DONE],
    ]);
    expect(stepKeys(events)).toEqual([['a:done']]);
    expect(requests).toHaveLength(2);
  });

  it('4.4 a replay that lacks a step shown before still shows its new steps', async () => {
    const { events } = await read([
      [START, step('a')],
      [START, step('b'), DONE],
    ]);
    expect(stepKeys(events)).toEqual([['a:done'], ['b:done']]);
  });

  it('4.4 a step shown once, replayed, then sent again as a genuine twin is shown a second time', async () => {
    const { events } = await read([
      [START, step('a')],
      [START, step('a'), step('a'), DONE],
    ]);
    expect(stepKeys(events)).toEqual([['a:done'], ['a:done']]);
  });

  it('4.4 a step whose status moved on is news', async () => {
    const { events } = await read([
      [START, step('a', 'running')],
      [START, step('a', 'running'), step('a', 'done'), DONE],
    ]);
    expect(stepKeys(events)).toEqual([['a:running'], ['a:done']]);
  });

  it('4.4 an interaction re-delivered by the replay is shown once', async () => {
    const { types } = await read([
      [START, TOOL],
      [START, TOOL, DONE],
    ]);
    expect(types.filter((t) => t === 'action_required')).toHaveLength(1);
    expect(types).toEqual(['start', 'action_required', 'resumed', 'completed']);
  });

  it('4.4 a re-opened stream that starts another message is logged; its start is not shown twice', async () => {
    const warn = vi.fn();
    const other: WireEvent = ['message.start', { chat_id: CHAT, message_id: 8, request_id: 'req-2' }];
    const { types } = await read([[START], [other, DONE]], { warn });
    expect(types).toEqual(['start', 'resumed', 'completed']);
    expect(warn).toHaveBeenCalledWith('a re-opened stream started another message', { message_id: 8 });
  });

  it('4.4 a re-opened stream that starts the same message logs nothing about it', async () => {
    const warn = vi.fn();
    await read([[START], [START, DONE]], { warn });
    expect(warn.mock.calls.map(([message]) => message)).not.toContain(
      'a re-opened stream started another message',
    );
  });

  it('6 an off-schema event is passed on once: a replay does not show it again, another one is shown', async () => {
    const warn = vi.fn();
    const bad = (n: number): WireEvent => ['message.step', { steps: `not a list ${n}` }];
    const { events } = await read(
      [
        [START, bad(1)],
        [START, bad(1), bad(2), DONE],
      ],
      { warn },
    );
    expect(events.flatMap((e) => (e.type === 'off_schema' ? [e.data] : []))).toEqual([
      { steps: 'not a list 1' },
      { steps: 'not a list 2' },
    ]);
    expect(events.at(-1)?.type).toBe('completed');
    expect(warn.mock.calls.filter(([m]) => String(m).includes('off_schema'))).toEqual([
      [
        'an event does not match the contract; passed on as off_schema',
        { event: 'message.step', problem: expect.any(String) },
      ],
      [
        'an event does not match the contract; passed on as off_schema',
        { event: 'message.step', problem: expect.any(String) },
      ],
    ]);
  });
});

describe('off-schema events across connections', () => {
  it('6 a replay that lacks an off-schema event shown before still passes on its new one', async () => {
    const { events } = await read([
      [START, ['message.step', { steps: 'first' }]],
      [START, ['message.step', { steps: 'second' }], DONE],
    ]);
    expect(events.flatMap((e) => (e.type === 'off_schema' ? [e.data] : []))).toEqual([
      { steps: 'first' },
      { steps: 'second' },
    ]);
  });
});

describe('terminal events', () => {
  it.each(['message.completed', 'message.cancelled', 'message.error'])(
    '6 an off-schema %s ends the stream with UnreadableTerminalError',
    async (name) => {
      const { error, types, requests } = await read([[START, [name, { nonsense: true }]]]);
      expect(error).toBeInstanceOf(UnreadableTerminalError);
      expect((error as UnreadableTerminalError).event).toBe(name);
      expect(types).toEqual(['start']);
      expect(requests).toHaveLength(1);
    },
  );

  it('6 events after a message.error in the same chunk are dropped and logged', async () => {
    const warn = vi.fn();
    const error: WireEvent = [
      'message.error',
      { code: 'turn_timeout', message: 'too long', retryable: false },
    ];
    const { types, error: failure } = await read([[START, error, step('late'), DONE]], { warn });
    expect(types).toEqual(['start', 'error']);
    expect(failure).toBeUndefined();
    expect(warn.mock.calls.filter(([m]) => m === 'dropped an event after the terminal event')).toEqual([
      ['dropped an event after the terminal event', { event: 'message.step' }],
      ['dropped an event after the terminal event', { event: 'message.completed' }],
    ]);
  });

  it('6 events after the terminal event are dropped without a logger, or with one that has no warn', async () => {
    for (const logger of [undefined, { debug: () => {} }]) {
      const { types, error } = await read(
        [[START, DONE, step('late'), ['message.step', { steps: 1 }]]],
        logger,
      );
      expect(types).toEqual(['start', 'completed']);
      expect(error).toBeUndefined();
    }
  });

  it('6 without a logger an off-schema event and a re-opened stream of another message are passed on quietly', async () => {
    const other: WireEvent = ['message.start', { chat_id: CHAT, message_id: 8, request_id: 'req-2' }];
    for (const logger of [undefined, { debug: () => {} }]) {
      const { types } = await read(
        [
          [START, ['message.step', { steps: 1 }]],
          [other, DONE],
        ],
        logger,
      );
      expect(types).toEqual(['start', 'off_schema', 'resumed', 'completed']);
    }
  });

  it('6 message.error persistence_failed is read again with the key: the resumed event says why', async () => {
    const stored: WireEvent = [
      'message.error',
      { code: 'persistence_failed', message: 'not stored', retryable: true },
    ];
    const { events, requests } = await read([
      [START, stored],
      [START, DONE],
    ]);
    const resumed = events.find((e) => e.type === 'resumed');
    expect(resumed).toMatchObject({
      attempt: 1,
      reason: 'message.error persistence_failed: reading the stored outcome again',
    });
    expect(events.at(-1)?.type).toBe('completed');
    expect(requests).toHaveLength(2);
  });
});

describe('what is not a delta', () => {
  it('6 an unknown event whose data looks like a delta is passed on as unknown, never folded into the text', async () => {
    const { fetch } = fakeFetch(
      sseResponse(
        sseText([
          START,
          ['message.delta', { text: 'a', replace: false }],
          ['message.future', { text: 'b', replace: false }],
          ['message.completed', finished('a')],
        ]),
      ),
    );
    const stream = client(fetch).turns.stream(CHAT, { content: 'x' });
    const events = await collect(stream);
    expect(events.map((e) => e.type)).toEqual(['start', 'delta', 'unknown', 'completed']);
    expect(stream.text).toBe('a');
  });
});

describe('relayed interactions', () => {
  const relay = (wire: WireEvent[]) =>
    RelayedTurnStream.fromReadableStream(new Response(sseText(wire)).body as ReadableStream<Uint8Array>);

  it('6 a relayed interaction carries the chat once message.start said it, none before', async () => {
    const early = (await firstInteraction(relay([TOOL, START, DONE]))) as RelayedInteraction;
    expect(early.chatId).toBeUndefined();
    const later = (await firstInteraction(relay([START, TOOL, DONE]))) as RelayedInteraction;
    expect(later.chatId).toBe(CHAT);
  });
});

async function firstInteraction(stream: AsyncIterable<StreamEvent<unknown>>): Promise<unknown> {
  for await (const event of stream) if (event.type === 'action_required') return event.interaction;
  throw new Error('no interaction');
}
