import { touchChat } from '../state/chat-records.js';
import type { TurnRecord } from '../state/records.js';
import type { MockStore } from '../state/store.js';
import type { TurnStart } from './live.js';
import { sourcesOf } from './turn-accounting.js';

/** Stores the record of a new turn, `pending` and empty, and marks its chat active. */
export function storeNewTurn(store: MockStore, start: TurnStart, now: number): TurnRecord {
  const turn: TurnRecord = {
    id: store.nextId('turn'),
    chat_id: start.chat.id,
    role: 'assistant',
    content: '',
    prompt: start.content,
    status: 'pending',
    usage: null,
    steps: [],
    sources: sourcesOf(store, start.attachments),
    anonymization: null,
    metadata: start.metadata,
    created_at: new Date(now).toISOString(),
    error: null,
    credential_id: start.credential.id,
    key: start.key,
    channel: start.channel,
    permission_mode: start.permission_mode,
    model_id: start.model_id,
    request_id: start.request_id,
  };
  store.addTurn(turn);
  touchChat(store, start.chat, turn.created_at);
  return turn;
}
