import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import type { ConvoUIMessage } from '../../src/ai/index.js';
import { restatedChunks, unpackRestate } from '../../src/ai/restate.js';

type Parts = ConvoUIMessage['parts'];
const META = { convo: { actionId: 'act_1', server: 'github' } };

const tool = (state: string, more: Record<string, unknown> = {}) =>
  ({
    type: 'dynamic-tool',
    toolCallId: 'toolu_1',
    toolName: 'search',
    title: 'search (github)',
    input: { q: 'x' },
    callProviderMetadata: META,
    state,
    ...more,
  }) as unknown as Parts[number];

const inputChunk = {
  type: 'tool-input-available',
  toolCallId: 'toolu_1',
  toolName: 'search',
  input: { q: 'x' },
  dynamic: true,
  title: 'search (github)',
  providerMetadata: META,
};

describe('restatedChunks: the chunks that rebuild a message on a page that starts from nothing', () => {
  it('text parts, in order, each its own part; steps opened and closed; data-convo parts with their ids', () => {
    const parts = [
      { type: 'text', text: 'Before ' },
      { type: 'data-convo-replace', data: { discardedChars: 7 } },
      { type: 'text', text: 'again' },
      { type: 'step-start' },
      { type: 'data-convo-step', id: 'k1', data: { key: 'k1' } },
      { type: 'step-start' },
      { type: 'reasoning', text: 'never written by the mapping' },
      { type: 'data-other', data: 1 },
    ] as unknown as Parts;
    expect(restatedChunks(parts)).toStrictEqual([
      { type: 'text-start', id: 'restate-0' },
      { type: 'text-delta', id: 'restate-0', delta: 'Before ' },
      { type: 'text-end', id: 'restate-0' },
      { type: 'data-convo-replace', data: { discardedChars: 7 } },
      { type: 'text-start', id: 'restate-1' },
      { type: 'text-delta', id: 'restate-1', delta: 'again' },
      { type: 'text-end', id: 'restate-1' },
      { type: 'start-step' },
      { type: 'data-convo-step', id: 'k1', data: { key: 'k1' } },
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'finish-step' },
    ]);
    expect(restatedChunks([])).toStrictEqual([]);
  });

  it('2.6 a tool asking for approval: its input (name, input, title, the action id), then the request', () => {
    expect(restatedChunks([tool('approval-requested', { approval: { id: 'act_1:toolu_1' } })])).toStrictEqual(
      [inputChunk, { type: 'tool-approval-request', approvalId: 'act_1:toolu_1', toolCallId: 'toolu_1' }],
    );
  });

  it('2.6 an answered approval: the request and the answer (approved or not)', () => {
    for (const approved of [true, false])
      expect(
        restatedChunks([tool('approval-responded', { approval: { id: 'act_1:toolu_1', approved } })]),
      ).toStrictEqual([
        inputChunk,
        { type: 'tool-approval-request', approvalId: 'act_1:toolu_1', toolCallId: 'toolu_1' },
        { type: 'tool-approval-response', approvalId: 'act_1:toolu_1', approved },
      ]);
  });

  it('a tool with its outcome: output, denial or error; one without approval or title has none', () => {
    const bare = {
      type: 'tool-input-available',
      toolCallId: 'toolu_1',
      toolName: 'search',
      input: 1,
      dynamic: true,
    };
    const plain = { title: undefined, callProviderMetadata: undefined, input: 1 };
    expect(
      restatedChunks([tool('output-available', { ...plain, output: { status: 'completed' } })]),
    ).toStrictEqual([
      bare,
      {
        type: 'tool-output-available',
        toolCallId: 'toolu_1',
        output: { status: 'completed' },
        dynamic: true,
      },
    ]);
    expect(restatedChunks([tool('output-denied', plain)])).toStrictEqual([
      bare,
      { type: 'tool-output-denied', toolCallId: 'toolu_1' },
    ]);
    expect(restatedChunks([tool('output-error', { ...plain, errorText: 'broke' })])).toStrictEqual([
      bare,
      { type: 'tool-output-error', toolCallId: 'toolu_1', errorText: 'broke', dynamic: true },
    ]);
    expect(restatedChunks([tool('input-available', plain)])).toStrictEqual([bare]);
  });

  it('a tool part sent malformed (no tool name, an approval without an id) is left out, not passed on', () => {
    expect(restatedChunks([tool('input-available', { toolName: 7 })])).toStrictEqual([]);
    expect(restatedChunks([tool('approval-requested', { approval: { id: 3 } })])).toStrictEqual([inputChunk]);
  });
});

describe('unpackRestate', () => {
  async function through(chunks: unknown[]): Promise<unknown[]> {
    const out: unknown[] = [];
    const source = new ReadableStream<UIMessageChunk>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk as UIMessageChunk);
        controller.close();
      },
    });
    for await (const chunk of source.pipeThrough(unpackRestate())) out.push(chunk);
    return out;
  }

  it('replaces the restate part by the chunks that write its parts, keeps every other chunk, skips what is not a part', async () => {
    const start = { type: 'start', messageId: 'm' };
    const end = { type: 'finish' };
    const parts = [{ type: 'step-start' }, null, 'x', { type: 1 }, { type: 'text', text: 'a' }];
    expect(
      await through([
        start,
        { type: 'data-convo-restate', transient: true, data: { parts } },
        { type: 'data-convo-restate', data: { parts: 'not a list' } },
        { type: 'data-convo-restate' },
        end,
      ]),
    ).toStrictEqual([
      start,
      { type: 'start-step' },
      { type: 'text-start', id: 'restate-0' },
      { type: 'text-delta', id: 'restate-0', delta: 'a' },
      { type: 'text-end', id: 'restate-0' },
      { type: 'finish-step' },
      end,
    ]);
  });
});
