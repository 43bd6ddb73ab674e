import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  type Client,
  type ConvoError,
  StreamInterruptedError,
  TimeoutError,
  type Turn,
  TurnError,
  type TurnStreamEvent,
} from '../../src/index.js';
import { MAX_BODY_BYTES } from '../../src/mock/index.js';
import { trackResources, trackUnhandled, withDeadline } from '../support/leaks.js';
import { describeOnTargets, type MockTarget } from '../support/mock-targets.js';
import { printed } from '../support/turn-wire.js';
import {
  ANSWER,
  cells,
  type Expected,
  type FaultRow,
  type Path,
  ROUTE_OF,
  renderMatrix,
  WORDS,
} from './fault-matrix.js';

/** No cell may take longer than this: a hang fails the cell instead of the suite. */
const DEADLINE_MS = 20_000;

const ERRORS = { ApiError, TurnError, StreamInterruptedError, TimeoutError } as const;

/** The endpoint whose requests a path counts. */
const ENDPOINT: Record<Path, RegExp> = {
  sync: /\/messages$/,
  stream: /\/messages\/stream$/,
  answer: /\/actions\/approve-tool$/,
  cancel: /\/actions\/cancel$/,
};

/** What one call gave the caller. */
interface Result {
  turn?: Turn;
  error?: unknown;
  events: TurnStreamEvent[];
  /** An error of `stream.cancel()` itself (cancel path). */
  cancelError?: unknown;
}

/** More ids of 7 digits (8 bytes with the comma) than the mock reads bytes: a body past `MAX_BODY_BYTES`. */
function bigAttachments() {
  return { file_ids: Array.from({ length: Math.ceil(MAX_BODY_BYTES / 8) + 1 }, (_, i) => 1_000_000 + i) };
}

async function call(client: Client, path: Path, row: FaultRow, chatId: string, key: string): Promise<Result> {
  const events: TurnStreamEvent[] = [];
  const body = {
    content: row.content ?? (path === 'answer' ? `[[mock:tool_approval]] ${WORDS}` : WORDS),
    ...(row.bigBody ? { attachments: bigAttachments() } : {}),
  };
  const options = { idempotencyKey: key, ...row.options };
  try {
    switch (path) {
      case 'sync':
        return { turn: await client.turns.send(chatId, body, options), events };
      case 'stream': {
        const stream = client.turns.stream(chatId, body, options);
        for await (const event of stream) events.push(event);
        return { turn: await stream.finalTurn(), events };
      }
      case 'answer': {
        const turn = await client.turns.run(chatId, body, {
          ...options,
          onToolApproval: () => true,
          onEvent: (event) => events.push(event),
        });
        return { turn, events };
      }
      case 'cancel': {
        const stream = client.turns.stream(chatId, { content: '[[mock:hang]]' }, options);
        let cancelling: Promise<unknown> | undefined;
        for await (const event of stream) {
          events.push(event);
          if (event.type === 'start') cancelling = stream.cancel().catch((error: unknown) => ({ error }));
        }
        const cancelled = (await cancelling) as { error?: unknown } | undefined;
        return { turn: await stream.finalTurn(), events, cancelError: cancelled?.error };
      }
    }
  } catch (error) {
    return { error, events };
  }
}

/** Starts a turn that runs until cancelled, so that the chat is busy. */
async function occupy(client: Client, chatId: string) {
  const stream = client.turns.stream(chatId, { content: '[[mock:hang]]' });
  const iterator = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.value?.type !== 'start') throw new Error('the blocking turn did not start');
  return {
    messageId: first.value.message_id,
    release: async () => {
      await client.turns.cancel(chatId);
      while (!(await iterator.next()).done) {}
    },
  };
}

function check(target: MockTarget, path: Path, expected: Expected, result: Result, ids: Ids) {
  const { mock } = target;
  // No key of any credential ran its turn twice, whatever happened.
  const perKey = new Map<string, number>();
  for (const turn of mock.store.turns()) {
    const id = `${turn.credential_id}/${turn.key}`;
    perKey.set(id, (perKey.get(id) ?? 0) + 1);
  }
  expect([...perKey.values()].every((n) => n === 1)).toBe(true);
  expect(mock.runs(ids.key)).toBe(expected.ran);

  const sent = target.requests.filter((r) => r.method === 'POST' && ENDPOINT[path].test(r.path));
  if (typeof expected.attempts === 'number') expect(sent).toHaveLength(expected.attempts);
  else {
    expect(sent.length).toBeGreaterThanOrEqual(expected.attempts[0]);
    expect(sent.length).toBeLessThanOrEqual(expected.attempts[1]);
  }
  if (path === 'sync' || path === 'stream') expect(sent.every((r) => r.key === ids.key)).toBe(true);

  const stored = mock.store.turns().filter((turn) => turn.chat_id === ids.chatId && turn.key === ids.key);
  const { gets } = expected;
  if (gets.kind === 'error') {
    expect(result.error, `expected ${gets.name}, got ${JSON.stringify(result.turn?.content)}`).toBeInstanceOf(
      ERRORS[gets.name],
    );
    const error = result.error as ConvoError & {
      status?: number;
      code?: string;
      data?: any;
      messageId?: number;
    };
    if (gets.status !== undefined) expect(error.status).toBe(gets.status);
    if (gets.code !== undefined) expect(error.code).toBe(gets.code);
    expect(error.idempotencyKey).toBe(ids.key);
    if (expected.messageId) {
      const id = error instanceof ApiError ? error.data?.message_id : error.messageId;
      expect(id).toBe(ids.busyMessageId ?? stored[0]?.id);
      expect(id).toBeTypeOf('number');
    }
  } else {
    expect(result.error, String(result.error)).toBeUndefined();
    const turn = result.turn!;
    const status = gets.kind === 'content' ? 'completed' : 'cancelled';
    expect(turn.status).toBe(status);
    expect(turn.content).toBe(gets.kind === 'content' ? ANSWER : '');
    // The mock saved one turn for the key, with the content the caller got.
    expect(stored.map((t) => [t.status, t.content])).toEqual([[status, turn.content]]);
    expect(result.cancelError).toBeUndefined();
  }

  if (path !== 'sync' && result.events.length > 0) {
    const starts = result.events.filter((e) => e.type === 'start');
    const ends = result.events.filter(
      (e) => e.type === 'completed' || e.type === 'cancelled' || e.type === 'error',
    );
    expect(starts).toHaveLength(1);
    if (gets.kind !== 'error' || gets.name === 'TurnError') {
      expect(ends).toHaveLength(1);
      expect(result.events.at(-1)).toBe(ends[0]);
    }
    if (gets.kind !== 'error') {
      // Each character once: no replace, and the deltas add up to the answer.
      const deltas = result.events.filter((e) => e.type === 'delta');
      expect(deltas.some((d) => d.replace)).toBe(false);
      expect(deltas.map((d) => d.text).join('')).toBe(result.turn?.content);
      expect(printed(result.events)).toBe(result.turn?.content);
    }
    if (expected.resumed !== undefined) {
      expect(result.events.some((e) => e.type === 'resumed')).toBe(expected.resumed);
    }
  }
  if (expected.toolRan !== undefined) {
    const ran = stored[0]?.steps.some((step) => (step.tool_calls?.length ?? 0) > 0);
    expect(ran).toBe(expected.toolRan);
  }
}

interface Ids {
  chatId: string;
  key: string;
  busyMessageId?: number;
}

/** The same call again, same key, no fault: the stored outcome, and the turn does not run again. */
async function readLater(target: MockTarget, path: Path, row: FaultRow, ids: Ids) {
  await target.quiesce();
  const client = target.client();
  const again = await call(client, path, { ...row, options: {} }, ids.chatId, ids.key);
  expect(again.error, String(again.error)).toBeUndefined();
  expect(again.turn?.content).toBe(ANSWER);
  expect(target.mock.runs(ids.key)).toBe(1);
}

describeOnTargets('fault matrix', (target) => {
  for (const { row, path, expected } of cells()) {
    it(`${row.spec} ${row.fault} | ${path}`, async () => {
      const { mock } = target;
      mock.faults.clear();
      target.requests.length = 0;
      await target.quiesce();
      const resources = trackResources();
      const unhandled = trackUnhandled();
      try {
        const client = target.client();
        const ids: Ids = { chatId: crypto.randomUUID(), key: crypto.randomUUID() };
        const busy = row.busy ? await occupy(client, ids.chatId) : undefined;
        if (busy) ids.busyMessageId = busy.messageId;
        target.requests.length = 0;
        for (const fault of row.faults?.(ROUTE_OF[path]) ?? []) mock.faults.add(fault);
        const result = await withDeadline(
          call(client, path, row, ids.chatId, ids.key),
          DEADLINE_MS,
          row.fault,
        );
        await busy?.release();
        check(target, path, expected, result, ids);
        mock.faults.clear();
        if (expected.readLater) await readLater(target, path, row, ids);
        // Nothing left behind: no turn running, no connection open, no timer, no unhandled rejection.
        await target.quiesce();
        await resources.settle();
        expect(unhandled.reasons).toEqual([]);
      } finally {
        mock.faults.clear();
        resources.stop();
        unhandled.stop();
      }
    });
  }
});

describe('RELIABILITY.md', () => {
  it('publishes the fault matrix exactly as tested', () => {
    const file = new URL('../../RELIABILITY.md', import.meta.url);
    const doc = readFileSync(file, 'utf8');
    const [head, rest] = doc.split('<!-- fault-matrix:start -->');
    const [, tail] = (rest ?? '').split('<!-- fault-matrix:end -->');
    const fresh = `${head}<!-- fault-matrix:start -->\n${renderMatrix()}\n<!-- fault-matrix:end -->${tail}`;
    expect(rest, 'RELIABILITY.md lacks the fault-matrix markers').toBeDefined();
    // UPDATE_RELIABILITY=1 rewrites the table after a change of the matrix.
    if (process.env.UPDATE_RELIABILITY === '1') writeFileSync(file, fresh);
    else expect(doc).toBe(fresh);
  });
});
