import { Chat } from '@ai-sdk/react';
import { Chat as Chat6 } from '@ai-sdk/react-v3';
import type { ChatInit as ChatInit6, UIMessage as UIMessage6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import {
  type ConvoUIMessage,
  createChatRoute,
  messageText,
  type RouteRecordStore,
} from '../../src/ai/index.js';
import { mockClient } from '../support/mock-client.js';
import { gatedClock, type PageChat, type PageChatInit, page, STEP_MS, until } from './route-support.js';

/** Each AI SDK major's `Chat` on a page (6's cast to 7's types, as in majors.test.ts). */
const MAJORS: [string, (init: PageChatInit) => PageChat][] = [
  ['ai 7', (init) => new Chat<ConvoUIMessage>(init)],
  ['ai 6', (init) => new Chat6(init as unknown as ChatInit6<UIMessage6>) as unknown as PageChat],
];

const APPROVAL = `[[mock:slow ms=${STEP_MS}]] [[mock:words n=8]] [[mock:tool_approval]] find the report`;

describe.each(MAJORS)('createChatRoute under %s: a reload after a tool approval', (_major, makeChat) => {
  it('2.6 4.4 the page reloads while the turn goes on after the approval: the resumed answer shows the tool with its output and the whole saved text, no error', async () => {
    const gate = gatedClock();
    const { mock, client } = mockClient({ clock: gate.clock });
    const { id } = await client.chats.create({});
    const route = createChatRoute({ client, authorize: () => true });
    const before = page(id, route.handle, makeChat);
    await before.chat.sendMessage({ text: APPROVAL });
    const asking = before.last()?.parts.find((part) => part.type === 'dynamic-tool');
    if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
      throw new Error('no approval');
    const messageId = before.last()?.id;
    await before.chat.addToolApprovalResponse({ id: asking.approval.id, approved: true });
    gate.release(3);
    await until(() => before.text().trim().split(/\s+/).length >= 3, 'three words after the approval');
    before.reload();

    const after = page(id, route.handle, makeChat);
    const resumed = after.chat.resumeStream();
    await until(() => after.text().trim().split(/\s+/).length >= 3, 'the replayed words');
    gate.release(100);
    await resumed;
    expect(after.chat.error).toBeUndefined();
    expect(after.chat.status).toBe('ready');
    const message = after.last() as ConvoUIMessage;
    expect(message.id).toBe(messageId);
    const tool = message.parts.find((part) => part.type === 'dynamic-tool');
    expect(tool).toMatchObject({
      toolCallId: 'toolu_1',
      toolName: 'search',
      state: 'output-available',
      input: asking.input,
      callProviderMetadata: { convo: { actionId: asking.callProviderMetadata?.convo?.actionId } },
    });
    const [turn] = mock.store.turns();
    expect(messageText(message)).toBe(turn?.content);
    expect(message.metadata?.convo?.status).toBe('completed');
    expect(mock.store.turns()).toHaveLength(1);
  });

  it('2.6 4.4 reloaded onto another process (shared records, no shared streams): the turn read by its key shows the tool with its output and the saved text', async () => {
    const gate = gatedClock();
    const { mock, client } = mockClient({ clock: gate.clock });
    const { id } = await client.chats.create({});
    const shared = new Map<string, Parameters<RouteRecordStore['set']>[1]>();
    const records: RouteRecordStore = {
      get: async (chatId) => shared.get(chatId),
      set: async (chatId, record) => shared.set(chatId, record),
      delete: async (chatId) => shared.delete(chatId),
    };
    const one = createChatRoute({ client, records, authorize: () => true });
    const two = createChatRoute({ client, records, authorize: () => true });
    const before = page(id, one.handle, makeChat);
    await before.chat.sendMessage({ text: APPROVAL });
    const asking = before.last()?.parts.find((part) => part.type === 'dynamic-tool');
    if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
      throw new Error('no approval');
    await before.chat.addToolApprovalResponse({ id: asking.approval.id, approved: true });
    gate.release(3);
    await until(() => before.text().trim().split(/\s+/).length >= 3, 'three words after the approval');
    before.reload();

    const after = page(id, two.handle, makeChat);
    const resumed = after.chat.resumeStream();
    gate.release(100);
    await resumed;
    expect(after.chat.error).toBeUndefined();
    const message = after.last() as ConvoUIMessage;
    const tools = message.parts.filter((part) => part.type === 'dynamic-tool');
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({ toolCallId: 'toolu_1', state: 'output-available' });
    expect(messageText(message)).toBe(mock.store.turns()[0]?.content);
    expect(message.metadata?.convo?.status).toBe('completed');
    expect(mock.store.turns()).toHaveLength(1);
  });

  it('2.6 the page that approved goes on in place: one tool part, the text once, no error', async () => {
    const gate = gatedClock();
    const { mock, client } = mockClient({ clock: gate.clock });
    const { id } = await client.chats.create({});
    const route = createChatRoute({ client, authorize: () => true });
    const live = page(id, route.handle, makeChat);
    gate.release(100);
    await live.chat.sendMessage({ text: APPROVAL });
    const asking = live.last()?.parts.find((part) => part.type === 'dynamic-tool');
    if (asking?.type !== 'dynamic-tool' || asking.state !== 'approval-requested')
      throw new Error('no approval');
    await live.chat.addToolApprovalResponse({ id: asking.approval.id, approved: true });
    await until(() => live.last()?.metadata?.convo?.status === 'completed', 'the turn completed');
    const message = live.last() as ConvoUIMessage;
    expect(live.chat.error).toBeUndefined();
    expect(message.parts.filter((part) => part.type === 'dynamic-tool')).toHaveLength(1);
    expect(
      message.parts
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join(''),
    ).toBe(mock.store.turns()[0]?.content);
  });
});

describe('ConvoRouteTransport: a route error reaches chat.error.message as its sentence', () => {
  it('a refused chat (404) and a bad send (400): the message is the route’s, not its JSON; the status is kept', async () => {
    const { client } = mockClient();
    const { id } = await client.chats.create({});
    const refused = createChatRoute({ client, authorize: () => false });
    const send = page(id, refused.handle);
    await send.chat.sendMessage({ text: 'hello' });
    expect(send.chat.status).toBe('error');
    expect(send.chat.error?.message).toBe('no such chat');
    expect(send.chat.error).toMatchObject({ statusCode: 404 });
    const resume = page(id, refused.handle);
    await resume.chat.resumeStream();
    expect(resume.chat.error?.message).toBe('no such chat');

    const open = createChatRoute({ client, authorize: () => true });
    const bad = page(id, async (request) =>
      open.handle(new Request(request, { body: JSON.stringify({ id, messages: [], trigger: 'nope' }) })),
    );
    await bad.chat.sendMessage({ text: 'hello' });
    expect(bad.chat.error?.message).toBe("trigger: must be 'submit-message' or 'regenerate-message'");
  });

  it('an error answer that is not the route’s (text, other JSON, too long) reaches the page as it came', async () => {
    const { client } = mockClient();
    const { id } = await client.chats.create({});
    const answers = [
      new Response('Bad Gateway', { status: 502 }),
      Response.json({ detail: 'x' }, { status: 500 }),
      Response.json({ error: { message: '' } }, { status: 500 }),
      Response.json({ error: { message: 'x'.repeat(5000) } }, { status: 500 }),
      new Response('{not json', { status: 500, headers: { 'content-type': 'application/json' } }),
    ];
    const bodies = ['Bad Gateway', '{"detail":"x"}', '{"error":{"message":""}}'];
    for (const [n, answer] of answers.entries()) {
      const text = await answer.clone().text();
      const one = page(id, async () => answer);
      await one.chat.sendMessage({ text: 'hello' });
      expect(one.chat.error?.message).toBe(bodies[n] ?? text);
    }
  });
});
