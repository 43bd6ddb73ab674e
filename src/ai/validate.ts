import { ValidationError } from '../index.js';
import type { ConvoUIMessage } from './parts.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks the shape of what a browser posted, as far as the transport reads it: each message an object
 * with a `role` and an array of `parts`, each part an object with a string `type`, a text part's `text`
 * a string, a tool part's `toolCallId` a string, an answered approval's `approval.approved` a boolean.
 * Throws a `ValidationError` naming the first field that is wrong.
 */
export function checkMessages(messages: unknown): asserts messages is ConvoUIMessage[] {
  if (!Array.isArray(messages) || messages.length === 0)
    throw invalid('messages', 'must be a non-empty array');
  for (const [m, message] of (messages as unknown[]).entries()) {
    const at = `messages[${m}]`;
    if (!isObject(message)) throw invalid(at, 'must be an object');
    if (typeof message.id !== 'string') throw invalid(`${at}.id`, 'must be a string');
    if (typeof message.role !== 'string') throw invalid(`${at}.role`, 'must be a string');
    if (!Array.isArray(message.parts)) throw invalid(`${at}.parts`, 'must be an array');
    for (const [p, part] of (message.parts as unknown[]).entries()) checkPart(part, `${at}.parts[${p}]`);
  }
}

function checkPart(part: unknown, at: string): void {
  if (!isObject(part)) throw invalid(at, 'must be an object');
  const { type } = part;
  if (typeof type !== 'string') throw invalid(`${at}.type`, 'must be a string');
  if (type === 'text' && typeof part.text !== 'string') throw invalid(`${at}.text`, 'must be a string');
  if (type !== 'dynamic-tool' && !type.startsWith('tool-')) return;
  if (typeof part.toolCallId !== 'string') throw invalid(`${at}.toolCallId`, 'must be a string');
  if (part.state === 'approval-responded') {
    const approval = part.approval;
    if (!isObject(approval) || typeof approval.approved !== 'boolean')
      throw invalid(`${at}.approval.approved`, 'must be a boolean');
  }
}

/** A UUID, the shape of the service's chat ids (4.2). */
const CHAT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks the chat id the AI SDK gives (`useChat`'s `id`, its own random id when none is passed): it must
 * be the service's chat id, and the error says where to get one.
 */
export function checkChatId(chatId: string): void {
  if (!isChatId(chatId))
    throw invalid(
      'chat_id',
      "must be a UUID: useChat's id is the service's chat id: create a chat with client.chats.create() and pass useChat({ id: chat.id, transport })",
    );
}

/** Whether `chatId` has the shape of the service's chat ids (a UUID, 4.2). */
export const isChatId = (chatId: string): boolean => CHAT_ID.test(chatId);

/** A `ValidationError` of one field. */
export function invalid(field: string, message: string): ValidationError {
  return new ValidationError([{ field, message }]);
}
