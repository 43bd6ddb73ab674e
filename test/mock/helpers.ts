import { EventEmitter } from 'node:events';
import * as z from 'zod/mini';
import { type Chat, ChatSchema } from '../../src/contract/chat.js';
import { EnvelopeSchema, ErrorBodySchema } from '../../src/contract/envelope.js';
import { type Skill, SkillSchema } from '../../src/contract/skill.js';
import { type Message, MessageSchema, type Turn, TurnSchema } from '../../src/contract/turn.js';
import type { CommandIo } from '../../src/mock/adapters/command.js';
import type { ConvoMock, FakeModel, MockCredential } from '../../src/mock/index.js';
import { eventually } from '../support/leaks.js';

/** A body of the mock: the envelope of 2.1 or the error body of 7. */
export interface ReplyBody {
  status: string;
  message: string;
  message_code: string;
  data: unknown;
  meta: { request_id: string; page?: number; size?: number; total?: number; error_details?: unknown };
}

/** What one request to the mock got back, the body parsed. */
export interface Reply {
  status: number;
  headers: Headers;
  /** The parsed body; undefined when empty. */
  body: ReplyBody;
  /** The raw text of the body. */
  text: string;
}

/** Options of `call`. */
export interface CallInit {
  /** Bearer token; `mock-token` unless given; null sends no Authorization header. */
  token?: string | null;
  /** A JSON body (a string is sent as is). */
  body?: unknown;
  /** Extra headers. */
  headers?: Record<string, string>;
}

/** Sends `method path` straight to `mock.handle` and parses the answer. */
export async function call(
  mock: ConvoMock,
  method: string,
  path: string,
  init: CallInit = {},
): Promise<Reply> {
  const headers = new Headers(init.headers);
  const token = init.token === undefined ? 'mock-token' : init.token;
  if (token !== null) headers.set('authorization', `Bearer ${token}`);
  let body: string | undefined;
  // GET and HEAD carry no body, so one table of endpoints can pass `body: {}` to all.
  if (init.body !== undefined && method !== 'GET' && method !== 'HEAD') {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers.set('content-type', 'application/json');
  }
  const response = await mock.handle(
    new Request(new URL(path, mock.url), { method, headers, ...(body === undefined ? {} : { body }) }),
  );
  return parseReply(response);
}

/** Reads a Response of the mock into a `Reply`. */
export async function parseReply(response: Response): Promise<Reply> {
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : undefined,
    text,
  };
}

/** The status and `message_code` of a reply, for one-line assertions. */
export function outcome(reply: Reply): [number, string] {
  return [reply.status, reply.body?.message_code];
}

/** `data` of a successful reply as a skill, checked by the contract's own schema. */
export function skillOf(reply: Reply): Skill {
  EnvelopeSchema.parse(reply.body);
  return SkillSchema.parse(reply.body.data);
}

/** `data` of a successful list reply as skills, checked by the contract's own schema. */
export function skillsOf(reply: Reply): Skill[] {
  EnvelopeSchema.parse(reply.body);
  return z.array(SkillSchema).parse(reply.body.data);
}

/** Checks that `reply` is an error body of 7 and returns its `data`. */
export function errorDataOf(reply: Reply): unknown {
  ErrorBodySchema.parse(reply.body);
  return reply.body.data;
}

/** Creates a skill as `token` and returns it; fails the test unless the mock answered 201. */
export async function createSkill(
  mock: ConvoMock,
  fields: Record<string, unknown> = {},
  token = 'mock-token',
): Promise<Skill> {
  const reply = await call(mock, 'POST', '/api/v1/skills', {
    token,
    body: { name: 'Tone', instructions: 'Be brief.', ...fields },
  });
  if (reply.status !== 201) throw new Error(`create failed: ${reply.status} ${reply.text}`);
  return skillOf(reply);
}

/** Ids of the skills `token` lists (first page of 200). */
export async function listedIds(mock: ConvoMock, token = 'mock-token'): Promise<number[]> {
  return skillsOf(await call(mock, 'GET', '/api/v1/skills?size=200', { token })).map((skill) => skill.id);
}

/** The credentials most mock tests configure. */
export const TOKENS = [
  { token: 'mock-token' },
  { token: 'same-user' },
  { token: 'coworker', userId: 2 },
  { token: 'third', userId: 3 },
  { token: 'other-co', userId: 4 },
  { token: 'read-only', scopes: ['skills:read'] },
  { token: 'write-only', scopes: ['skills:write'] },
  { token: 'no-scope', scopes: [] },
  { token: 'allow-skills', allow: { skills: [1] } },
  { token: 'allow-libs', allow: { libraries: [2] } },
] as const satisfies readonly MockCredential[];

/** Options of `send`. */
export interface SendInit {
  /** Bearer token; `mock-token` unless given. */
  token?: string;
  /** The `Idempotency-Key`; a fresh one unless given; null sends none. */
  key?: string | null;
  /** Extra headers. */
  headers?: Record<string, string>;
}

/** A synchronous send (4.3) of `body` to `chatId`; `permission_mode: auto` unless the body says otherwise. */
export function send(mock: ConvoMock, chatId: string, body: unknown, init: SendInit = {}): Promise<Reply> {
  const key = init.key === undefined ? crypto.randomUUID() : init.key;
  return call(mock, 'POST', `/api/v1/chats/${chatId}/messages`, {
    ...(init.token === undefined ? {} : { token: init.token }),
    body,
    headers: { ...(key === null ? {} : { 'idempotency-key': key }), ...init.headers },
  });
}

/** `data` of a successful reply as a chat, checked by the contract's own schema. */
export function chatOf(reply: Reply): Chat {
  EnvelopeSchema.parse(reply.body);
  return ChatSchema.parse(reply.body.data);
}

/** `data` of a successful reply as a turn, checked by the contract's own schema. */
export function turnOf(reply: Reply): Turn {
  if (reply.status !== 200) throw new Error(`expected a turn, got ${reply.status} ${reply.text}`);
  EnvelopeSchema.parse(reply.body);
  return TurnSchema.parse(reply.body.data);
}

/** `data` of a message listing, checked by the contract's own schema. */
export function messagesOf(reply: Reply): Message[] {
  EnvelopeSchema.parse(reply.body);
  return z.array(MessageSchema).parse(reply.body.data);
}

/** Creates a chat as `token` and returns it; fails the test unless the mock answered 201. */
export async function createChat(
  mock: ConvoMock,
  fields: Record<string, unknown> = {},
  token = 'mock-token',
): Promise<Chat> {
  const reply = await call(mock, 'POST', '/api/v1/chats', { token, body: fields });
  if (reply.status !== 201) throw new Error(`create chat failed: ${reply.status} ${reply.text}`);
  return chatOf(reply);
}

/** The messages of a chat (first page of 200). */
export async function listMessages(
  mock: ConvoMock,
  chatId: string,
  token = 'mock-token',
): Promise<Message[]> {
  return messagesOf(await call(mock, 'GET', `/api/v1/chats/${chatId}/messages?size=200`, { token }));
}

/** Lets pending promise chains (a turn running on the real clock with no waits) settle. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setTimeout(resolve, 0));
}

/** A send body in `auto` mode, the only one the synchronous send takes. */
export function auto(content: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { content, permission_mode: 'auto', ...extra };
}

/** Credentials of the chat tests: scopes cut one by one, and an owner of another company. */
export const CHAT_TOKENS = [
  { token: 'mock-token' },
  { token: 'same-user' },
  { token: 'other-co', userId: 4 },
  { token: 'reader', scopes: ['chat:read'] },
  { token: 'writer', scopes: ['chat:write'] },
  { token: 'chat-only', scopes: ['chat:read', 'chat:write'] },
  { token: 'allow-libs', allow: { libraries: [2] } },
] as const satisfies readonly MockCredential[];

/** A fake model whose turn waits, after a first delta, until `open()` is called. */
export function gatedModel(): { model: FakeModel; open: () => void } {
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const model: FakeModel = async function* () {
    yield { type: 'text', text: 'first ' };
    await gate;
    yield { type: 'text', text: 'second' };
  };
  return { model, open };
}

/** Posts to one of the action endpoints of a chat (4.5, 4.6). */
export function act(
  mock: ConvoMock,
  chatId: string,
  action: 'approve-tool' | 'respond-plan' | 'respond-elicitation' | 'cancel-auth' | 'cancel',
  body: unknown,
  token = 'mock-token',
): Promise<Reply> {
  return call(mock, 'POST', `/api/v1/chats/${chatId}/actions/${action}`, { token, body });
}

/**
 * POSTs a streamed turn of `content` to a new chat at `baseUrl` through the global fetch (a real server, or
 * msw), with the mock's default credential; `key` is the `Idempotency-Key` (random when absent).
 */
export function postStream(
  baseUrl: string,
  content: string,
  { key = crypto.randomUUID(), signal }: { key?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(`${baseUrl}/api/v1/chats/${crypto.randomUUID()}/messages/stream`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer mock-token',
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    body: JSON.stringify({ content }),
    ...(signal ? { signal } : {}),
  });
}

/** Captures the command's output; `signals` stands in for the process. */
export function fakeIo() {
  const out: string[] = [];
  const err: string[] = [];
  const signals = new EventEmitter();
  const io: CommandIo = { out: (line) => out.push(line), err: (line) => err.push(line), signals };
  return { io, out, err, signals };
}

/** Resolves with the first line the command printed on `out`, once it did (10 s at most: a hang guard). */
export async function firstLine(out: readonly string[]): Promise<string> {
  await eventually(() => (out.length > 0 ? undefined : 'the command printed nothing'));
  return out[0] as string;
}
