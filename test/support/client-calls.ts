import type { Client } from '../../src/client.js';
import { ENDPOINT_DOCS } from '../../src/contract/endpoint-docs.js';
import type { ClientEndpoint } from './client-endpoints.js';

/** A chat id the calls use. */
export const CALL_CHAT_ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

const example = <N extends ClientEndpoint>(name: N) =>
  (ENDPOINT_DOCS[name] as { example?: unknown }).example as never;

/** Every JSON endpoint the client calls (all but the stream), as the client calls it, with the documented example bodies. */
export const JSON_CALLS: Record<
  Exclude<ClientEndpoint, 'turns.stream'>,
  (client: Client) => Promise<unknown>
> = {
  'skills.list': (c) => c.skills.list(),
  'skills.create': (c) => c.skills.create(example('skills.create')),
  'skills.get': (c) => c.skills.get(1),
  'skills.update': (c) => c.skills.update(1, example('skills.update')),
  'skills.toggle': (c) => c.skills.toggle(1),
  'skills.delete': (c) => c.skills.delete(1),
  'chats.list': (c) => c.chats.list(),
  'chats.create': (c) => c.chats.create(example('chats.create')),
  'chats.get': (c) => c.chats.get(CALL_CHAT_ID),
  'chats.update': (c) => c.chats.update(CALL_CHAT_ID, example('chats.update')),
  'chats.delete': (c) => c.chats.delete(CALL_CHAT_ID),
  'chats.messages': (c) => c.chats.messages(CALL_CHAT_ID),
  'chats.catalog': (c) => c.chats.catalog(),
  'turns.send': (c) => c.turns.send(CALL_CHAT_ID, example('turns.send')),
  'turns.cancel': (c) => c.turns.cancel(CALL_CHAT_ID, example('turns.cancel')),
  'actions.approveTool': (c) => c.actions.approveTool(CALL_CHAT_ID, example('actions.approveTool')),
  'actions.respondPlan': (c) => c.actions.respondPlan(CALL_CHAT_ID, example('actions.respondPlan')),
  'actions.respondElicitation': (c) =>
    c.actions.respondElicitation(CALL_CHAT_ID, example('actions.respondElicitation')),
  'actions.cancelAuth': (c) => c.actions.cancelAuth(CALL_CHAT_ID, example('actions.cancelAuth')),
};

/** Each call's failure, by endpoint name; the calls that succeeded are absent. */
export async function failedCalls(client: Client): Promise<Record<string, string>> {
  const failures: Record<string, string> = {};
  for (const [name, call] of Object.entries(JSON_CALLS)) {
    try {
      await call(client);
    } catch (error) {
      failures[name] = String(error);
    }
  }
  return failures;
}
