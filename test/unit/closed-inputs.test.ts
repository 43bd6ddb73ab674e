import { describe, expect, it } from 'vitest';
import { type Client, ValidationError } from '../../src/index.js';
import { fakeClient } from '../support/fake-client.js';
import { fakeFetch } from '../support/fake-fetch.js';
import { CHAT } from '../support/sse.js';
import { surfaced } from '../support/surfaced.js';

/** A client whose fetch records requests (none is expected: each call is refused before it is sent). */
function recording() {
  const { fetch, requests } = fakeFetch(new Error('no request may be sent'));
  const client = fakeClient(fetch, { maxRetries: 0 });
  return { client, requests };
}

/** Each call carries one misspelled field; `field` is the name the refusal must give. */
const MISSPELLED: Array<{ name: string; field: string; call: (client: Client) => unknown }> = [
  {
    name: '4.1 skills.create',
    field: 'descriptoin',
    call: (c) => c.skills.create({ name: 'a', instructions: 'b', descriptoin: 'c' } as never),
  },
  { name: '4.1 skills.update', field: 'iconn', call: (c) => c.skills.update(1, { iconn: 'x' } as never) },
  { name: '4.1 skills.list', field: 'pgae', call: (c) => c.skills.list({ pgae: 2 } as never) },
  {
    name: '4.2 chats.create',
    field: 'permision_mode',
    call: (c) => c.chats.create({ permision_mode: 'manual' } as never),
  },
  {
    name: '4.2 chats.update',
    field: 'favorite',
    call: (c) => c.chats.update(CHAT, { favorite: true } as never),
  },
  {
    name: '4.2 chats.list',
    field: 'is_favourite',
    call: (c) => c.chats.list({ is_favourite: true } as never),
  },
  { name: '4.2 chats.messages', field: 'sise', call: (c) => c.chats.messages(CHAT, { sise: 5 } as never) },
  {
    name: '4.3 turns.send',
    field: 'metdata',
    call: (c) => c.turns.send(CHAT, { content: 'x', metdata: { a: 1 } } as never),
  },
  {
    name: '4.3 turns.send attachments',
    field: 'attachments.files',
    call: (c) => c.turns.send(CHAT, { content: 'x', attachments: { files: [1] } } as never),
  },
  {
    name: '4.4 turns.stream',
    field: 'modelId',
    call: (c) => c.turns.stream(CHAT, { content: 'x', modelId: 1 } as never),
  },
  {
    name: '4.5 actions.approveTool',
    field: 'decisions.0.approve',
    call: (c) =>
      c.actions.approveTool(CHAT, {
        action_id: 'a',
        decisions: [{ tool_use_id: 't', approved: true, approve: true }],
      } as never),
  },
  {
    name: '4.5 actions.respondPlan',
    field: 'reason',
    call: (c) => c.actions.respondPlan(CHAT, { action_id: 'a', action: 'reject', reason: 'no' } as never),
  },
  {
    name: '4.5 actions.respondElicitation',
    field: 'contents',
    call: (c) =>
      c.actions.respondElicitation(CHAT, { action_id: 'a', action: 'decline', contents: {} } as never),
  },
  {
    name: '4.5 actions.cancelAuth',
    field: 'actionId',
    call: (c) => c.actions.cancelAuth(CHAT, { action_id: 'a', actionId: 'a' } as never),
  },
  {
    name: '4.6 turns.cancel',
    field: 'actionid',
    call: (c) => c.turns.cancel(CHAT, { actionid: 'a' } as never),
  },
];

describe('closed request bodies: a misspelled field is refused, never silently dropped', () => {
  for (const { name, field, call } of MISSPELLED) {
    it(`${name}: an unknown field is a ValidationError naming it, when awaited or read, before any request`, async () => {
      const { client, requests } = recording();
      const { threw, error } = await surfaced(() => call(client));
      expect(threw).toBe(false);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((issue) => issue.field)).toEqual([field]);
      expect((error as ValidationError).message).toContain(field);
      expect(requests).toHaveLength(0);
    });
  }

  it('4.1 skills.update: `level` is refused with its own reason (fixed after creation)', async () => {
    const { client } = recording();
    const error = await client.skills.update(1, { level: 'company' } as never).catch((e: unknown) => e);
    expect((error as ValidationError).issues).toEqual([
      { field: 'level', message: 'is fixed after creation' },
    ]);
  });

  it('4.2 an optional field set to undefined is no field at all: accepted, and not sent', async () => {
    const { fetch, requests } = fakeFetch(
      Response.json({ status: 'success', message: 'OK', message_code: 'api_v1_ok', data: {}, meta: {} }),
    );
    const client = fakeClient(fetch, { maxRetries: 0 });
    await client.chats.create({ name: undefined, permission_mode: undefined }).catch(() => {});
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body).toEqual({});
  });
});
