import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  ConvoChatTransport,
  type ConvoUIMessage,
  MAX_PAUSED_READS,
  messageText,
} from '../../src/ai/index.js';
import { Client, ValidationError } from '../../src/index.js';
import { createMock } from '../../src/mock/index.js';

/** A mock, a transport on it holding at most `maxPausedReads`, and the turn streams open, by key. */
async function setup(maxPausedReads: number) {
  const mock = createMock();
  /** Open turn-stream bodies per key: a body counts until it is read to its end or cancelled. */
  const open = new Map<string, number>();
  /** The streaming sends, by key. */
  const sends: string[] = [];
  const fetch: typeof mock.fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await mock.fetch(request);
    const key = request.headers.get('idempotency-key') ?? '';
    if (!request.url.endsWith('/messages/stream')) return response;
    sends.push(key);
    if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream'))
      return response;
    return new Response(counted(response.body, key, open), response);
  };
  const client = new Client({
    baseUrl: mock.url,
    token: 'mock-token',
    fetch,
    retryDelay: { min: 1, max: 5 },
  });
  const transport = new ConvoChatTransport({ client, maxPausedReads });
  const openKeys = () => [...open].flatMap(([key, n]) => (n > 0 ? [key] : []));
  return { mock, client, transport, open: openKeys, sends };
}

/** `body`, counted in `open` under `key` until it ends or is cancelled. */
function counted(
  body: ReadableStream<Uint8Array>,
  key: string,
  open: Map<string, number>,
): ReadableStream<Uint8Array> {
  open.set(key, (open.get(key) ?? 0) + 1);
  let closed = false;
  const close = () => {
    if (!closed) open.set(key, (open.get(key) ?? 1) - 1);
    closed = true;
  };
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done) {
        close();
        controller.close();
      } else controller.enqueue(next.value);
    },
    cancel(reason) {
      close();
      return reader.cancel(reason);
    },
  });
}

/** The message `stream` writes (continuing `message` when given). */
async function messageOf(
  stream: ReadableStream<UIMessageChunk>,
  message?: ConvoUIMessage,
): Promise<ConvoUIMessage> {
  let last = message;
  for await (const update of readUIMessageStream<ConvoUIMessage>({
    stream: stream as ReadableStream<never>,
    ...(message ? { message } : {}),
  }))
    last = update;
  if (!last) throw new Error('no message');
  return last;
}

/** The user's prompt `text` as the message `id`. */
function promptOf(id: string, text: string): ConvoUIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

/** What the transport streams for `messages` sent to `chatId`, continuing `message` when given. */
function submit(
  transport: ConvoChatTransport,
  chatId: string,
  messages: ConvoUIMessage[],
  message?: ConvoUIMessage,
) {
  return transport.sendMessages({
    trigger: 'submit-message',
    chatId,
    messageId: message?.id,
    messages,
    abortSignal: undefined,
  });
}

/** The message a paused chat's turn ends in once its tool approvals are sent back approved. */
async function approve(
  transport: ConvoChatTransport,
  paused: { id: string; prompt: ConvoUIMessage; message: ConvoUIMessage },
): Promise<ConvoUIMessage> {
  const { id, prompt, message } = paused;
  return messageOf(await submit(transport, id, approved(prompt, message), message), message);
}

/** Lets the cancelled bodies' callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The user's prompt and the assistant's message with every tool approval answered `approved`. */
function approved(prompt: ConvoUIMessage, message: ConvoUIMessage): ConvoUIMessage[] {
  const parts = message.parts.map((part) =>
    part.type === 'dynamic-tool' && part.state === 'approval-requested'
      ? { ...part, state: 'approval-responded' as const, approval: { ...part.approval, approved: true } }
      : part,
  );
  return [prompt, { ...message, parts } as ConvoUIMessage];
}

describe('ConvoChatTransport holds at most maxPausedReads reads paused at a tool approval', () => {
  it(`2.6 holds at most N open (default MAX_PAUSED_READS, ${MAX_PAUSED_READS}), the least recently paused released first; a released turn is answered by reading it again by its key`, async () => {
    const N = 3;
    const CHATS = 12;
    const { mock, client, transport, open, sends } = await setup(N);
    const chats: Array<{ id: string; prompt: ConvoUIMessage; message: ConvoUIMessage }> = [];
    for (let n = 0; n < CHATS; n++) {
      const { id } = await client.chats.create({});
      const prompt = promptOf(`u${n}`, `[[mock:tool_approval]] find ${n}`);
      const stream = await submit(transport, id, [prompt]);
      const message = await messageOf(stream);
      expect(
        message.parts.some((part) => part.type === 'dynamic-tool' && part.state === 'approval-requested'),
      ).toBe(true);
      chats.push({ id, prompt, message });
      await settle();
      const key = (c: (typeof chats)[number]) => c.message.metadata?.convo?.idempotencyKey;
      // The last N paused reads are the ones open, the newest included; every older one was released.
      expect(open().sort()).toEqual(chats.slice(-N).map(key).sort());
    }
    expect(mock.store.turns().filter((turn) => turn.status === 'pending')).toHaveLength(CHATS);

    // The oldest was released: its answer is sent, then the turn is read again by its key, from after the approval.
    const oldest = chats[0]!;
    const oldestKey = oldest.message.metadata?.convo?.idempotencyKey as string;
    const resumed = await approve(transport, oldest);
    const saved = (message: ConvoUIMessage) =>
      mock.store.turns().find((turn) => turn.id === message.metadata?.convo?.turnId);
    expect(resumed.metadata?.convo?.status).toBe('completed');
    expect(resumed.parts.find((part) => part.type === 'dynamic-tool')).toMatchObject({
      state: 'output-available',
    });
    expect(messageText(resumed)).toBe(saved(resumed)?.content);
    expect(sends.filter((key) => key === oldestKey).length).toBeGreaterThan(1);
    expect(mock.runs(oldestKey)).toBe(1);

    // The newest is still held: its answer continues the same read, with no second send.
    const newest = chats.at(-1)!;
    const newestKey = newest.message.metadata?.convo?.idempotencyKey as string;
    const live = await approve(transport, newest);
    expect(live.metadata?.convo?.status).toBe('completed');
    expect(messageText(live)).toBe(saved(live)?.content);
    expect(sends.filter((key) => key === newestKey)).toHaveLength(1);
    await settle();
    expect(open()).toHaveLength(N - 1);
  });

  it('maxPausedReads 0 holds none: every approval is answered by reading the turn again', async () => {
    const { client, transport, open } = await setup(0);
    const { id } = await client.chats.create({});
    const prompt = promptOf('u', '[[mock:tool_approval]] go');
    await messageOf(await submit(transport, id, [prompt]));
    await settle();
    expect(open()).toEqual([]);
  });

  it("a continuation of another turn of the chat releases the chat's held read", async () => {
    const { client, transport, open } = await setup(5);
    const { id } = await client.chats.create({});
    const prompt = promptOf('u', '[[mock:tool_approval]] go');
    const message = await messageOf(await submit(transport, id, [prompt]));
    const key = message.metadata?.convo?.idempotencyKey;
    await settle();
    expect(open()).toEqual([key]);
    const [user, assistant] = approved(prompt, message) as [ConvoUIMessage, ConvoUIMessage];
    const other = { ...assistant, metadata: { convo: { idempotencyKey: crypto.randomUUID() } } };
    await submit(transport, id, [user, other], other).then(
      (stream) => stream.cancel(),
      () => undefined,
    );
    await settle();
    expect(open()).not.toContain(key);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'maxPausedReads %s is a ValidationError naming it',
    (value) => {
      const client = new Client({ baseUrl: 'https://api.test', token: 'test-token' });
      let error: unknown;
      try {
        new ConvoChatTransport({ client, maxPausedReads: value });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe('maxPausedReads');
    },
  );
});
