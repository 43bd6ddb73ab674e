import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type ConvoMock,
  createManualClock,
  createMock,
  DIRECTIVE_LIMITS,
  directiveModel,
  type FakeModel,
} from '../../src/mock/index.js';
import { untilSleeping } from '../support/manual-clock.js';
import { auto, errorDataOf, listMessages, outcome, send, turnOf } from './helpers.js';
import { stream, streamRequest } from './sse.js';

let mock: ConvoMock;
let chatId: string;
beforeEach(() => {
  mock = createMock();
  chatId = crypto.randomUUID();
});

describe('directive parameters have upper bounds (refused before the turn starts)', () => {
  const refused = [
    [`[[mock:words n=${DIRECTIVE_LIMITS.wordsN + 1}]]`, 'words n', DIRECTIVE_LIMITS.wordsN],
    ['[[mock:words n=1500000]]', 'words n', DIRECTIVE_LIMITS.wordsN],
    ['[[mock:words n=-3]]', 'words n', DIRECTIVE_LIMITS.wordsN],
    ['[[mock:words n=ten]]', 'words n', DIRECTIVE_LIMITS.wordsN],
    [`[[mock:slow ms=${DIRECTIVE_LIMITS.slowMs + 1}]]`, 'slow ms', DIRECTIVE_LIMITS.slowMs],
    ['[[mock:slow ms=1e9]]', 'slow ms', DIRECTIVE_LIMITS.slowMs],
    [
      `[[mock:error code=${'x'.repeat(DIRECTIVE_LIMITS.errorCode + 1)}]]`,
      'error code',
      DIRECTIVE_LIMITS.errorCode,
    ],
    ['[[mock:error code=Not-A-Code]]', 'error code', DIRECTIVE_LIMITS.errorCode],
  ] as const;
  for (const [content, parameter, limit] of refused) {
    it(`${content.slice(0, 40)} -> 422 naming [[mock:${parameter}]], nothing stored or run`, async () => {
      const reply = await send(mock, chatId, auto(`Hi ${content}`), { key: 'k' });
      expect(outcome(reply)).toEqual([422, 'api_v1_validation_error']);
      const [issue] = errorDataOf(reply) as Array<{ field: string; message: string; limit: number }>;
      expect(issue).toMatchObject({ field: 'content', limit });
      expect(issue?.message).toContain(`[[mock:${parameter}]]`);
      expect(mock.store.turns()).toEqual([]);
      expect(mock.store.chats()).toEqual([]);
      // The key was not bound: the same key with a valid body runs.
      expect(turnOf(await send(mock, chatId, auto('Hi'), { key: 'k' })).content).toBe('Mock answer: Hi');
    });
  }

  it('the streaming send refuses the same way, before the stream starts', async () => {
    const response = await mock.handle(streamRequest(mock, chatId, { content: '[[mock:words n=100001]]' }));
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('at the bounds: words n=100000 answers 100,000 words; slow ms=0 and a 64-character code are taken', async () => {
    const turn = turnOf(await send(mock, chatId, auto(`[[mock:words n=${DIRECTIVE_LIMITS.wordsN}]]`)));
    expect(turn.content.split(' ')).toHaveLength(DIRECTIVE_LIMITS.wordsN);
    expect(turn.content.endsWith(` word${DIRECTIVE_LIMITS.wordsN}`)).toBe(true);
    const code = 'e'.repeat(DIRECTIVE_LIMITS.errorCode);
    const failed = await send(
      mock,
      crypto.randomUUID(),
      auto(`[[mock:slow ms=0]] [[mock:error code=${code}]]`),
    );
    expect(outcome(failed)).toEqual([502, code]);
  });

  it('a model of its own is not bound by the directives: its content reaches it as sent', async () => {
    const seen: string[] = [];
    const own: FakeModel = async function* ({ content }) {
      seen.push(content);
      yield { type: 'text', text: 'ok' };
    };
    mock.setModel(own);
    const turn = turnOf(await send(mock, chatId, auto('[[mock:words n=99999999999]]')));
    expect([turn.content, seen]).toEqual(['ok', ['[[mock:words n=99999999999]]']]);
  });

  it('directiveModel run from another model fails the turn (upstream_error) on a parameter past its bound', async () => {
    mock.setModel((input) => directiveModel(input));
    const reply = await send(mock, chatId, auto('[[mock:words n=100001]]'));
    expect(outcome(reply)).toEqual([502, 'upstream_error']);
    expect(reply.body.message).toContain('[[mock:words n]]');
    expect((await listMessages(mock, chatId)).map((m) => m.status)).toEqual(['error']);
  });
});

describe('a slow wait is honoured at any allowed size', () => {
  it('slow ms at its bound (30 days) on the manual clock: the delta comes exactly then', async () => {
    const clock = createManualClock();
    mock = createMock({ clock, pingMs: DIRECTIVE_LIMITS.slowMs * 2 });
    const reader = await stream(mock, chatId, {
      content: `[[mock:slow ms=${DIRECTIVE_LIMITS.slowMs}]] [[mock:words n=1]]`,
    });
    await reader.until('message.step');
    const delta = reader.next();
    let arrived = false;
    void delta.then(() => {
      arrived = true;
    });
    // The read's ping and the turn's slow wait: the wait starts now, not after the advance below.
    await untilSleeping(clock, 2);
    await clock.advance(DIRECTIVE_LIMITS.slowMs - 1);
    expect(arrived).toBe(false);
    await clock.advance(1);
    expect((await delta)?.data).toEqual({ text: 'word1', replace: false });
  });

  describe('on the global timers', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('slow ms=2147483648 (past what one timer holds) waits 2^31 ms, not 1 ms', async () => {
      // vitest's fake timers, like Node, fire a delay above 2^31-1 ms after 1 ms.
      mock = createMock({ pingMs: DIRECTIVE_LIMITS.slowMs * 2 });
      const reader = await stream(mock, chatId, {
        content: '[[mock:slow ms=2147483648]] [[mock:words n=1]]',
      });
      await reader.until('message.step');
      let arrived = false;
      const delta = reader.next().then((event) => {
        arrived = true;
        return event;
      });
      await vi.advanceTimersByTimeAsync(1000);
      expect(arrived).toBe(false);
      await vi.advanceTimersByTimeAsync(2 ** 31 - 1000 - 1);
      expect(arrived).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await delta)?.data).toEqual({ text: 'word1', replace: false });
    });
  });
});
