import { describe, expect, it } from 'vitest';
import { Client, ValidationError } from '../../src/index.js';
import { PUBLIC_METHODS } from '../support/client-endpoints.js';
import { fakeClient } from '../support/fake-client.js';
import { fakeFetch } from '../support/fake-fetch.js';
import { surfaced } from '../support/surfaced.js';

/**
 * The rule of docs/client.md ("Errors") for when an error surfaces: a method that returns a promise rejects (it never throws
 * synchronously); one that returns a stream or an async iterable returns it, and the error fails its first
 * read. A list (`PagePromise`) is both: awaiting it rejects, and `for await` fails at the first item.
 */

const BAD_CHAT = 'not-a-uuid';
const ANSWER = { action_id: 'a', action: 'approve' } as const;

/** What a method returns, and so where its error surfaces. */
type Kind = 'promise' | 'pages' | 'stream';

/** One call per public method of every resource, each with an input the client refuses before sending. */
const CALLS: Record<string, Record<string, [Kind, (client: Client) => unknown]>> = {
  skills: {
    list: ['pages', (c) => c.skills.list({ size: 500 })],
    create: ['promise', (c) => c.skills.create({ name: 'a' } as never)],
    get: ['promise', (c) => c.skills.get(1.5)],
    update: ['promise', (c) => c.skills.update(1, { name: 5 } as never)],
    toggle: ['promise', (c) => c.skills.toggle(Number.NaN)],
    delete: ['promise', (c) => c.skills.delete('1' as never)],
  },
  chats: {
    list: ['pages', (c) => c.chats.list({ page: 0 })],
    create: ['promise', (c) => c.chats.create({ name: 'x'.repeat(201) })],
    get: ['promise', (c) => c.chats.get(BAD_CHAT)],
    update: ['promise', (c) => c.chats.update(BAD_CHAT, {})],
    delete: ['promise', (c) => c.chats.delete(BAD_CHAT)],
    messages: ['pages', (c) => c.chats.messages(BAD_CHAT)],
    catalog: ['promise', (c) => c.chats.catalog({ headers: { 'bad name': 'v' } })],
  },
  turns: {
    stream: ['stream', (c) => c.turns.stream(BAD_CHAT, { content: 'x' })],
    run: ['promise', (c) => c.turns.run(BAD_CHAT, { content: 'x' })],
    send: ['promise', (c) => c.turns.send(BAD_CHAT, { content: 'x' })],
    cancel: ['promise', (c) => c.turns.cancel(BAD_CHAT)],
  },
  actions: {
    approveTool: ['promise', (c) => c.actions.approveTool(BAD_CHAT, { action_id: 'a', decisions: [] })],
    respondPlan: ['promise', (c) => c.actions.respondPlan(BAD_CHAT, ANSWER)],
    respondElicitation: [
      'promise',
      (c) => c.actions.respondElicitation(BAD_CHAT, { ...ANSWER, action: 'cancel' }),
    ],
    cancelAuth: ['promise', (c) => c.actions.cancelAuth(BAD_CHAT, { action_id: 'a' })],
    answer: ['promise', (c) => c.actions.answer(BAD_CHAT, 'plan_approval', ANSWER, undefined)],
  },
};

function recording() {
  const { fetch, requests } = fakeFetch(new Error('no request may be sent'));
  return { client: fakeClient(fetch, { maxRetries: 0 }), requests };
}

describe('when errors surface: a promise rejects, a stream fails when read, nothing throws synchronously', () => {
  it('the table covers every public method, as the endpoint table derives them', () => {
    const covered = Object.entries(CALLS).flatMap(([name, methods]) =>
      Object.keys(methods).map((m) => `${name}.${m}`),
    );
    expect(covered.sort()).toEqual([...PUBLIC_METHODS].sort());
  });

  for (const [resource, methods] of Object.entries(CALLS)) {
    for (const [method, [kind, call]] of Object.entries(methods)) {
      it(`${resource}.${method} (${kind}): no synchronous throw; the ValidationError surfaces ${kind === 'stream' ? 'at the first read' : 'as a rejection'}, nothing sent`, async () => {
        const { client, requests } = recording();
        const { threw, returned, error } = await surfaced(() => call(client));
        expect(threw).toBe(false);
        expect(returned).toBe(kind === 'stream' ? 'iterable' : 'promise');
        expect(error).toBeInstanceOf(ValidationError);
        expect(requests).toHaveLength(0);
      });
    }
  }

  it('a list is also read with for await: the ValidationError fails the first item', async () => {
    const { client } = recording();
    const read = async () => {
      for await (const _ of client.skills.list({ size: 500 })) return;
    };
    const error = await read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain('size: must be an integer from 1 to 200');
  });

  it('a stream is returned untouched until read; then each reader gets the ValidationError', async () => {
    const { client, requests } = recording();
    const stream = client.turns.stream(BAD_CHAT, { content: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(requests).toHaveLength(0);
    const error = await stream.finalText().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain('chat_id: must be a UUID');
  });

  it('a streamed body is checked at the first read too', async () => {
    const { client } = recording();
    const chat = crypto.randomUUID();
    const { threw, error } = await surfaced(() => client.turns.stream(chat, { content: 5 } as never));
    expect(threw).toBe(false);
    expect((error as ValidationError).field).toBe('content');
  });

  it('the constructor and withOptions, which return neither, throw a bad option synchronously', () => {
    const { client } = recording();
    expect(() => new Client({ baseUrl: 'nope', token: 't' })).toThrow(ValidationError);
    expect(() => client.withOptions({ maxResponseBytes: 0 })).toThrow(ValidationError);
  });
});
