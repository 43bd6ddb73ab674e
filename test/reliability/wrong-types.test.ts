import { beforeAll, describe, expect, it } from 'vitest';
import { type Client, ValidationError } from '../../src/index.js';
import { useTarget } from '../support/mock-targets.js';

/**
 * Wrong types and missing required fields, one table: the client refuses each before sending with a
 * ValidationError naming the field, and the mock, sent the same body past the client, refuses it too,
 * naming the same field (422 `api_v1_validation_error`), or with the status the contract gives that case.
 */

type Body = Record<string, unknown>;
interface Case {
  spec: string;
  name: string;
  /** The field the client and the mock name. */
  field: string;
  body: Body;
  client(client: Client, body: Body): unknown;
  /** The request the mock gets past the client. */
  raw: { method: string; path: () => string; keyed?: boolean };
  /** Status and code of the mock when it is not the generic 422. */
  mock?: [number, string];
}

let skillId = 0;
let chatId = '';
const uuid = () => crypto.randomUUID();
const skills = { method: 'POST', path: () => '/api/v1/skills' };
const skill = { method: 'PATCH', path: () => `/api/v1/skills/${skillId}` };
const chats = { method: 'POST', path: () => '/api/v1/chats' };
const chat = { method: 'PATCH', path: () => `/api/v1/chats/${chatId}` };
const send = { method: 'POST', path: () => `/api/v1/chats/${uuid()}/messages`, keyed: true };
const stream = { method: 'POST', path: () => `/api/v1/chats/${uuid()}/messages/stream`, keyed: true };
const act = (endpoint: string) => ({
  method: 'POST',
  path: () => `/api/v1/chats/${chatId}/actions/${endpoint}`,
});

const createSkill = (c: Client, b: Body) => c.skills.create(b as never);
const updateSkill = (c: Client, b: Body) => c.skills.update(skillId, b as never);
const createChat = (c: Client, b: Body) => c.chats.create(b as never);
const updateChat = (c: Client, b: Body) => c.chats.update(chatId, b as never);
const sendTurn = (c: Client, b: Body) => c.turns.send(uuid(), b as never);
// A stream fails its first read: `finalTurn()` reads it.
const streamTurn = (c: Client, b: Body) => c.turns.stream(uuid(), b as never).finalTurn();

const CASES: Case[] = [
  {
    spec: '4.1',
    name: 'skill without name',
    field: 'name',
    body: { instructions: 'x' },
    client: createSkill,
    raw: skills,
  },
  {
    spec: '4.1',
    name: 'skill without instructions',
    field: 'instructions',
    body: { name: 'x' },
    client: createSkill,
    raw: skills,
  },
  {
    spec: '4.1',
    name: 'skill name a number',
    field: 'name',
    body: { name: 1, instructions: 'x' },
    client: createSkill,
    raw: skills,
  },
  {
    spec: '4.1',
    name: 'skill instructions null',
    field: 'instructions',
    body: { name: 'x', instructions: null },
    client: createSkill,
    raw: skills,
  },
  {
    spec: '4.1',
    name: 'skill level unknown',
    field: 'level',
    body: { name: 'x', instructions: 'x', level: 'team' },
    client: createSkill,
    raw: skills,
  },
  {
    spec: '4.1',
    name: 'skill visibility a number',
    field: 'visibility',
    body: { name: 'x', instructions: 'x', visibility: 1 },
    client: createSkill,
    raw: skills,
  },
  {
    spec: '4.1',
    name: 'skill workspace_id a string',
    field: 'workspace_id',
    body: { name: 'x', instructions: 'x', workspace_id: '1' },
    client: createSkill,
    raw: skills,
  },
  {
    spec: '4.1',
    name: 'skill workspace_id fractional',
    field: 'workspace_id',
    body: { name: 'x', instructions: 'x', workspace_id: 1.5 },
    client: createSkill,
    raw: skills,
  },
  {
    spec: '4.1',
    name: 'shared_user_ids holding a string',
    field: 'shared_user_ids.1',
    body: { name: 'x', instructions: 'x', shared_user_ids: [2, '3'] },
    client: createSkill,
    raw: skills,
  },
  {
    spec: '4.1',
    name: 'shared_user_ids not a list',
    field: 'shared_user_ids',
    body: { name: 'x', instructions: 'x', shared_user_ids: 2 },
    client: createSkill,
    raw: skills,
  },
  {
    spec: '3.1, 4.1',
    name: 'level on update (fixed after creation)',
    field: 'level',
    body: { level: 'company' },
    client: updateSkill,
    raw: skill,
  },
  {
    spec: '4.1',
    name: 'skill name null on update',
    field: 'name',
    body: { name: null },
    client: updateSkill,
    raw: skill,
  },
  {
    spec: '4.2',
    name: 'chat name a number',
    field: 'name',
    body: { name: 5 },
    client: createChat,
    raw: chats,
  },
  {
    spec: '4.2',
    name: 'chat model_id a string',
    field: 'model_id',
    body: { model_id: '1' },
    client: createChat,
    raw: chats,
  },
  {
    spec: '4.2, 9',
    name: 'permission_mode plan (not in v1)',
    field: 'permission_mode',
    body: { permission_mode: 'plan' },
    client: createChat,
    raw: chats,
  },
  {
    spec: '4.2',
    name: 'is_favorite a string',
    field: 'is_favorite',
    body: { is_favorite: 'yes' },
    client: updateChat,
    raw: chat,
  },
  {
    spec: '4.2',
    name: 'chat rename to a number',
    field: 'name',
    body: { name: 1 },
    client: updateChat,
    raw: chat,
  },
  { spec: '4.3', name: 'turn without content', field: 'content', body: {}, client: sendTurn, raw: send },
  {
    spec: '4.3',
    name: 'turn content a number',
    field: 'content',
    body: { content: 1 },
    client: sendTurn,
    raw: send,
  },
  {
    spec: '4.3',
    name: 'turn model_id a string',
    field: 'model_id',
    body: { content: 'x', model_id: '1' },
    client: sendTurn,
    raw: send,
  },
  {
    spec: '4.3',
    name: 'attachments a list',
    field: 'attachments',
    body: { content: 'x', attachments: [1] },
    client: sendTurn,
    raw: send,
  },
  {
    spec: '4.3',
    name: 'file_ids a string',
    field: 'attachments.file_ids',
    body: { content: 'x', attachments: { file_ids: '11' } },
    client: sendTurn,
    raw: send,
  },
  {
    spec: '4.3',
    name: 'skill_ids holding a fraction',
    field: 'attachments.skill_ids.0',
    body: { content: 'x', attachments: { skill_ids: [1.5] } },
    client: sendTurn,
    raw: send,
  },
  {
    spec: '4.3',
    name: 'metadata a list',
    field: 'metadata',
    body: { content: 'x', metadata: [] },
    client: sendTurn,
    raw: send,
  },
  {
    spec: '4.3',
    name: 'metadata a string',
    field: 'metadata',
    body: { content: 'x', metadata: 'x' },
    client: sendTurn,
    raw: send,
  },
  {
    spec: '4.3, 7.3',
    name: 'permission_mode manual on the synchronous send',
    field: 'permission_mode',
    body: { content: 'x', permission_mode: 'manual' },
    client: sendTurn,
    raw: send,
    mock: [409, 'api_v1_sync_requires_auto'],
  },
  {
    spec: '4.4',
    name: 'stream without content',
    field: 'content',
    body: {},
    client: streamTurn,
    raw: stream,
  },
  {
    spec: '4.4, 9',
    name: 'stream permission_mode plan',
    field: 'permission_mode',
    body: { content: 'x', permission_mode: 'plan' },
    client: streamTurn,
    raw: stream,
  },
  {
    spec: '4.4',
    name: 'stream mcp_server_ids holding null',
    field: 'attachments.mcp_server_ids.0',
    body: { content: 'x', attachments: { mcp_server_ids: [null] } },
    client: streamTurn,
    raw: stream,
  },
  {
    spec: '4.5',
    name: 'approve-tool without decisions',
    field: 'decisions',
    body: { action_id: 'a' },
    client: (c, b) => c.actions.approveTool(chatId, b as never),
    raw: act('approve-tool'),
  },
  {
    spec: '4.5',
    name: 'approve-tool with no decision',
    field: 'decisions',
    body: { action_id: 'a', decisions: [] },
    client: (c, b) => c.actions.approveTool(chatId, b as never),
    raw: act('approve-tool'),
  },
  {
    spec: '4.5',
    name: 'approve-tool approved a string',
    field: 'decisions.0.approved',
    body: { action_id: 'a', decisions: [{ tool_use_id: 't', approved: 'yes' }] },
    client: (c, b) => c.actions.approveTool(chatId, b as never),
    raw: act('approve-tool'),
  },
  {
    spec: '4.5',
    name: 'approve-tool without tool_use_id',
    field: 'decisions.0.tool_use_id',
    body: { action_id: 'a', decisions: [{ approved: true }] },
    client: (c, b) => c.actions.approveTool(chatId, b as never),
    raw: act('approve-tool'),
  },
  {
    spec: '4.5',
    name: 'approve-tool without action_id',
    field: 'action_id',
    body: { decisions: [{ tool_use_id: 't', approved: true }] },
    client: (c, b) => c.actions.approveTool(chatId, b as never),
    raw: act('approve-tool'),
  },
  {
    spec: '4.5',
    name: 'approve-tool action_id empty',
    field: 'action_id',
    body: { action_id: '', decisions: [{ tool_use_id: 't', approved: true }] },
    client: (c, b) => c.actions.approveTool(chatId, b as never),
    raw: act('approve-tool'),
  },
  {
    spec: '4.5',
    name: 'respond-plan action unknown',
    field: 'action',
    body: { action_id: 'a', action: 'maybe' },
    client: (c, b) => c.actions.respondPlan(chatId, b as never),
    raw: act('respond-plan'),
  },
  {
    spec: '4.5',
    name: 'respond-elicitation accept without content',
    field: 'content',
    body: { action_id: 'a', action: 'accept' },
    client: (c, b) => c.actions.respondElicitation(chatId, b as never),
    raw: act('respond-elicitation'),
  },
  {
    spec: '4.5',
    name: 'respond-elicitation content not flat',
    field: 'content.email',
    body: { action_id: 'a', action: 'accept', content: { email: { x: 1 } } },
    client: (c, b) => c.actions.respondElicitation(chatId, b as never),
    raw: act('respond-elicitation'),
  },
  {
    spec: '4.5',
    name: 'cancel-auth without action_id',
    field: 'action_id',
    body: {},
    client: (c, b) => c.actions.cancelAuth(chatId, b as never),
    raw: act('cancel-auth'),
  },
  {
    spec: '4.6',
    name: 'cancel action_id a number',
    field: 'action_id',
    body: { action_id: 5 },
    client: (c, b) => c.turns.cancel(chatId, b as never),
    raw: act('cancel'),
  },
];

describe('bad input: wrong types and missing required fields', () => {
  const target = useTarget();
  let client: Client;
  beforeAll(async () => {
    client = target.client();
    skillId = (await client.skills.create({ name: 'Tone', instructions: 'Be brief.' })).id;
    chatId = (await client.chats.create({})).id;
  });

  for (const c of CASES) {
    it(`${c.spec} ${c.name}: the client and the mock both refuse it, naming ${c.field}`, async () => {
      const sent = target.requests.length;
      const error = await Promise.resolve()
        .then(() => c.client(client, c.body))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe(c.field);
      expect(target.requests.length).toBe(sent);

      const reply = await target.raw(c.raw.method, c.raw.path(), {
        body: c.body,
        ...(c.raw.keyed ? { headers: { 'idempotency-key': uuid() } } : {}),
      });
      if (c.mock) expect([reply.status, reply.body.message_code]).toEqual(c.mock);
      else {
        expect([reply.status, reply.body.message_code]).toEqual([422, 'api_v1_validation_error']);
        expect(reply.body.data.map((issue: { field: string }) => issue.field)).toContain(c.field);
      }
    });
  }

  it('4.1, 4.2 path parameters of the wrong shape are refused before sending, named skill_id and chat_id', async () => {
    const sent = target.requests.length;
    for (const [call, field] of [
      [() => client.skills.get(1.5), 'skill_id'],
      [() => client.skills.delete(Number.NaN), 'skill_id'],
      [() => client.chats.get('not-a-uuid'), 'chat_id'],
      [() => client.chats.messages('../skills'), 'chat_id'],
      [() => client.turns.send('', { content: 'x' }), 'chat_id'],
      [() => client.turns.cancel('x'), 'chat_id'],
    ] as Array<[() => unknown, string]>) {
      const error = await Promise.resolve()
        .then(call)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe(field);
    }
    expect(target.requests.length).toBe(sent);
    // The mock answers them as not found, never as anything else (7.1).
    expect((await target.raw('GET', '/api/v1/skills/1.5')).status).toBe(404);
    expect((await target.raw('GET', '/api/v1/chats/not-a-uuid')).status).toBe(404);
  });
});
