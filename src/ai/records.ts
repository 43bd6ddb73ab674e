import type { TurnStreamBody } from '../index.js';

/** The last turn of a chat: what `reconnectToStream` sends again to read it from its start. */
export interface TurnRecord {
  /** The UI message the turn writes. */
  messageId: string;
  /** The turn's key. */
  idempotencyKey: string;
  /** What was sent. */
  body: TurnStreamBody;
}

/**
 * Where the transport keeps the last turn of each chat (in memory by default; `sessionStorage` survives a
 * reload). `delete` is called once a turn has ended and its whole message was delivered.
 */
export interface TurnRecordStore {
  /** The chat's last turn, if known. */
  get(chatId: string): TurnRecord | undefined;
  /** Keeps the chat's last turn. */
  set(chatId: string, record: TurnRecord): void;
  /** Forgets the chat's last turn. */
  delete?(chatId: string): unknown;
}

/** How many chats the default store keeps a turn for: the least recently used is forgotten beyond it. */
export const MAX_RECORDS = 1000;

/** The default store: the last turns of at most `max` chats, least recently used forgotten first. */
export function boundedRecords(max = MAX_RECORDS): TurnRecordStore {
  const records = new Map<string, TurnRecord>();
  return {
    get(chatId) {
      const record = records.get(chatId);
      if (record) {
        records.delete(chatId);
        records.set(chatId, record);
      }
      return record;
    },
    set(chatId, record) {
      records.delete(chatId);
      records.set(chatId, record);
      if (records.size > max) records.delete(records.keys().next().value as string);
    },
    delete: (chatId) => records.delete(chatId),
  };
}
