// An app on AI SDK 6 (`ai` 6, `@ai-sdk/react` 3) that installed convo-sdk beside it without
// --legacy-peer-deps: the transport type-checks as 6's ChatTransport (tsc), and a headless Chat runs a turn
// against the in-process mock; a Chat without the service's chat id fails with a ValidationError saying so.
import assert from 'node:assert/strict';
import { Chat } from '@ai-sdk/react';
import { Client, ValidationError } from 'convo-sdk';
import { ConvoChatTransport, type ConvoUIMessage, messageText } from 'convo-sdk/ai';
import { createMock } from 'convo-sdk/mock';

const mock = createMock();
const client = new Client({ baseUrl: mock.url, token: 'mock-token', fetch: mock.fetch, maxRetries: 0 });
const transport = new ConvoChatTransport({ client });
const { id } = await client.chats.create({});
const chat = new Chat<ConvoUIMessage>({ id, transport });
await chat.sendMessage({ text: '[[mock:words n=5]] hello' });
assert.equal(chat.status, 'ready', String(chat.error));
const answer = chat.messages.at(-1);
assert.equal(answer?.role, 'assistant');
const [turn] = mock.store.turns();
assert.equal(turn?.status, 'completed');
assert.equal(messageText(answer), turn.content);

const withoutId = new Chat<ConvoUIMessage>({ transport });
await withoutId.sendMessage({ text: 'hello' });
assert.equal(withoutId.status, 'error');
assert.ok(withoutId.error instanceof ValidationError, String(withoutId.error));
assert.match(withoutId.error.message, /useChat's id is the service's chat id/);
assert.equal(mock.store.turns().length, 1);
console.log(
  `a headless Chat turn completed (${turn.content.split(' ').length} words); a Chat without an id: ${withoutId.error.message.slice(0, 40)}...`,
);
