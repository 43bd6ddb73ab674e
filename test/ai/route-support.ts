import { Chat } from '@ai-sdk/react';
import { lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { expect } from 'vitest';
import {
  ConvoRouteTransport,
  type ConvoUIMessage,
  createChatRoute,
  memoryStreams,
  messageText,
  type RouteRecordStore,
  type RouteStreams,
} from '../../src/ai/index.js';
import type { ConvoMock, MockClock, MockFetch, TurnRecord } from '../../src/mock/index.js';
import { mockClient } from '../support/mock-client.js';

/** The `ms` of `[[mock:slow]]` the gate holds; every other wait of the mock lasts until its signal. */
export const STEP_MS = 7;

/** A mock clock whose `slow` steps pass only when the test lets them: no test waits on real time. */
export function gatedClock() {
  let allowed = 0;
  const waiting: Array<() => void> = [];
  const clock: MockClock = {
    now: () => Date.now(),
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        signal?.addEventListener('abort', () => resolve(), { once: true });
        if (ms !== STEP_MS) return;
        if (allowed > 0) {
          allowed--;
          resolve();
        } else waiting.push(resolve);
      }),
  };
  const release = (steps: number) => {
    allowed += steps;
    while (allowed > 0 && waiting.length > 0) {
      allowed--;
      waiting.shift()?.();
    }
  };
  /** Takes back the steps released and not used: a turn of the next test starts gated. */
  const reset = () => {
    allowed = 0;
  };
  return { clock, release, reset };
}

/** Polls `condition` between macrotasks, at most `turns` times (a count, not a duration). */
export async function until(condition: () => boolean, what: string, turns = 20_000): Promise<void> {
  for (let turn = 0; turn < turns; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

/**
 * A page: `useChat`'s `Chat` on `ConvoRouteTransport`, its requests answered by `handle`. `reload()` closes
 * its open responses the way a reload does: the route sees the request go, and no stop.
 */
export function page(
  id: string,
  handle: (request: Request) => Promise<Response>,
  makeChat: (init: PageChatInit) => PageChat = (init) => new Chat<ConvoUIMessage>(init),
) {
  const open = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const sent: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push(`${request.method} ${new URL(request.url).pathname}`);
    const response = await handle(request);
    if (!response.body) return response;
    const reader = response.body.getReader();
    let own: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        own = controller;
        open.add(controller);
      },
      async pull(controller) {
        const next = await reader.read();
        if (next.done) {
          open.delete(controller);
          controller.close();
        } else controller.enqueue(next.value);
      },
      cancel(reason) {
        if (own) open.delete(own);
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const chat = makeChat({
    id,
    transport: new ConvoRouteTransport({ api: 'http://app.test/api/chat', fetch }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const last = () => chat.messages.at(-1);
  const text = () => {
    const message = last();
    return message?.role === 'assistant' ? messageText(message) : '';
  };
  const reload = () => {
    for (const controller of open) controller.error(new Error('the page was reloaded'));
    open.clear();
  };
  return { chat, sent, last, text, reload };
}

/** What `page()` gives the `Chat` it makes. */
export interface PageChatInit {
  id: string;
  transport: ConvoRouteTransport;
  sendAutomaticallyWhen: typeof lastAssistantMessageIsCompleteWithApprovalResponses;
  messages?: ConvoUIMessage[];
}

/** What a page's test reads of its `Chat` (AI SDK 7's, or 6's cast to it). */
export type PageChat = Pick<
  Chat<ConvoUIMessage>,
  | 'messages'
  | 'status'
  | 'error'
  | 'sendMessage'
  | 'addToolApprovalResponse'
  | 'stop'
  | 'resumeStream'
  | 'dispose'
>;

/** A page of `page()`. */
export type Page = ReturnType<typeof page>;

/**
 * `text` sent from a page on `first`; once three words show (the gate lets three slow steps pass), the page
 * reloads and a new one on `second` resumes the turn. `wait` polls for the three words: `until`'s count of
 * macrotasks in one process; a time bound where another process serves the page (its progress is not this
 * process's to count).
 */
export async function reloadMidTurn(
  gate: ReturnType<typeof gatedClock>,
  id: string,
  first: (request: Request) => Promise<Response>,
  second: (request: Request) => Promise<Response>,
  text: string,
  wait: (condition: () => boolean, what: string) => Promise<void> = until,
): Promise<{ shown: string; after: Page; resumed: Promise<void> }> {
  const before = page(id, first);
  void before.chat.sendMessage({ text }).catch(() => {});
  gate.release(3);
  // Each delta is a word and the space after it, so "a b " is two words: three whole words are all the gate lets
  // through, and the text then holds still until the next release.
  await wait(() => before.text().trim().split(/\s+/).length >= 3, 'three words shown');
  const shown = before.text();
  before.reload();
  const after = page(id, second);
  return { shown, after, resumed: after.chat.resumeStream() };
}

/** `after` ends on the one turn of the chat, completed, showing its saved text: the key's replay, not a second turn. */
export function expectEndedAsSaved(after: Page, turns: () => TurnRecord[]): void {
  const message = after.last() as ConvoUIMessage;
  expect(message.metadata?.convo?.status).toBe('completed');
  expect(messageText(message)).toBe(turns()[0]?.content);
  expect(turns()).toHaveLength(1);
}

/**
 * A mock client whose requests pass through `through` (given the mock) before they reach it; its polls of
 * a running turn (409 `api_v1_turn_in_progress`, 7.3) wait 1 ms, so that no test waits out a real backoff.
 */
function wiredClient(clock: MockClock, through: (request: Request, mock: ConvoMock) => Promise<Response>) {
  const target: { mock?: ConvoMock } = {};
  const fetch: MockFetch = async (input, init) => through(new Request(input, init), target.mock as ConvoMock);
  const { mock, client } = mockClient({ clock }, { fetch, retryDelay: { min: 1, max: 1 } });
  target.mock = mock;
  return { mock, client };
}

/**
 * A mock client whose first turn open (`POST …/messages/stream`) waits at the wire until `open()`: a turn
 * the route is still opening. `reached()` says whether that open was sent.
 */
export function openingClient(clock: MockClock) {
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let sent = 0;
  const wired = wiredClient(clock, async (request, mock) => {
    if (request.url.endsWith('/messages/stream') && sent++ === 0) await gate;
    return mock.fetch(request);
  });
  return { ...wired, open, reached: () => sent > 0 };
}

/**
 * Two route processes sharing their records: through `one`, a page sends a turn that hangs, and its open
 * waits at the wire until `open()` (`openingClient`); resolves once that open was sent.
 */
export async function openingOnTwo() {
  const gate = gatedClock();
  const opening = openingClient(gate.clock);
  const { id } = await opening.client.chats.create({});
  const records = sharedRecords();
  const route = () =>
    createChatRoute({ client: opening.client, authorize: 'every-chat-to-every-caller', records });
  const [one, two] = [route(), route()];
  const { chat } = page(id, one.handle);
  void chat.sendMessage({ text: '[[mock:hang]] wait' }).catch(() => {});
  await until(opening.reached, 'the turn being opened');
  return { ...opening, id, one, two, chat };
}

/**
 * A mock client on a service whose cancel (4.6) is answered 200 at once and takes effect only from
 * `deliver()` on: a 200 means the cancel was delivered, not that the turn ended. `asked()` counts them.
 */
export function lateCancelClient(clock: MockClock) {
  const late: Request[] = [];
  let delivering = false;
  let asked = 0;
  const wired = wiredClient(clock, async (request, mock) => {
    if (!request.url.endsWith('/actions/cancel')) return mock.fetch(request);
    asked++;
    if (delivering) return mock.fetch(request);
    late.push(request);
    const chatId = new URL(request.url).pathname.split('/').at(-3);
    return Response.json({
      status: 'success',
      message: 'Turn cancelled.',
      message_code: 'api_v1_ok',
      data: { chat_id: chatId, cancelled: true },
      meta: { request_id: crypto.randomUUID() },
    });
  });
  const deliver = async () => {
    delivering = true;
    for (const request of late.splice(0)) await wired.mock.fetch(request);
  };
  return { ...wired, deliver, asked: () => asked };
}

/** What `useChat` posts for a new turn of chat `id` saying `text`. */
export const sendRequest = (id: string, text: string) =>
  new Request('http://app.test/api/chat', {
    method: 'POST',
    body: JSON.stringify({
      id,
      trigger: 'submit-message',
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }],
    }),
  });

/** A stop of chat `id` as `ConvoRouteTransport` posts it. */
export const stopRequest = (id: string) =>
  new Request(`http://app.test/api/chat/${id}/stop`, { method: 'POST' });

/** Records every route shares, as processes behind a load balancer share a store. */
export function sharedRecords(): RouteRecordStore {
  const shared = new Map<string, Parameters<RouteRecordStore['set']>[1]>();
  return {
    get: async (chatId) => shared.get(chatId),
    set: async (chatId, record) => shared.set(chatId, record),
    delete: async (chatId) => shared.delete(chatId),
  };
}

/** Lets pending work run for a count of macrotasks (not a duration). */
export async function turnsPass(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
}

/** `memoryStreams()` that lists the ids of the answers it was given to hold, in order, in `held`; `streams` also resumes them. */
export function listedStreams(): { streams: RouteStreams; held: string[] } {
  const memory = memoryStreams();
  const held: string[] = [];
  const streams: RouteStreams = {
    createNewResumableStream: (streamId, make) => {
      held.push(streamId);
      return memory.createNewResumableStream(streamId, make);
    },
    resumeExistingStream: (streamId) => memory.resumeExistingStream(streamId),
  };
  return { streams, held };
}
