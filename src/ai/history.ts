import type { Client, Message, RequestOptions, TurnStatus } from '../index.js';
import { toolOutput, toolTitle } from './chunks.js';
import type { ConvoMetadata, ConvoUIMessage } from './parts.js';

/** Options of `chatMessagesToUI` and `toUIMessages`. */
export interface HistoryOptions {
  /**
   * What a turn still running (`pending`) gives: `prompt` (default) its user message alone, since the page
   * resumes its answer (`useChat({ resume: true })`), which would otherwise show twice; `answer` also the
   * answer saved so far, for a page that does not resume.
   */
  pending?: 'prompt' | 'answer' | undefined;
}

/** The statuses a turn's message metadata takes (`ConvoMetadata`); a newer service's other statuses are left out. */
const STATUSES: ReadonlySet<string> = new Set<TurnStatus>(['completed', 'cancelled', 'error', 'pending']);

/**
 * A chat's saved turns (`client.chats.messages(chatId)`, oldest first) as `useChat` messages, for
 * `useChat({ id, messages })` on a page that opens (or reloads) a chat: per turn, the user's prompt, then
 * the assistant's answer as the transport writes it (each step as a `data-convo-step` part, each tool it
 * ran as a dynamic tool part with its output, the text), with `metadata.convo` (`chatId`, `turnId`,
 * `status`, `usage`). The listing holds no turn key, so `idempotencyKey` is absent; a saved answer's text
 * is its `content`, which `messageText` shows as it is.
 */
export function chatMessagesToUI(
  messages: readonly Message[],
  options: HistoryOptions = {},
): ConvoUIMessage[] {
  const out: ConvoUIMessage[] = [];
  for (const turn of messages) {
    out.push({ id: `convo-prompt-${turn.id}`, role: 'user', parts: [{ type: 'text', text: turn.prompt }] });
    if (turn.status === 'pending' && options.pending !== 'answer') continue;
    out.push({
      id: `convo-turn-${turn.id}`,
      role: 'assistant',
      metadata: metadataOf(turn),
      parts: partsOf(turn),
    });
  }
  return out;
}

/**
 * Every saved turn of `chatId` as `useChat` messages (`chatMessagesToUI` over `client.chats.messages`,
 * read page by page, 200 turns a page). On a server, with the server's client: pass the result to the page.
 */
export async function toUIMessages(
  client: Client,
  chatId: string,
  options: HistoryOptions & { request?: RequestOptions | undefined } = {},
): Promise<ConvoUIMessage[]> {
  const turns: Message[] = [];
  for await (const turn of client.chats.messages(chatId, { size: 200 }, options.request)) turns.push(turn);
  return chatMessagesToUI(turns, options);
}

/** A saved turn's answer: its steps, each with the tools it ran, then its text. */
function partsOf(turn: Message): ConvoUIMessage['parts'] {
  const parts: ConvoUIMessage['parts'] = [];
  for (const step of turn.steps) {
    parts.push({ type: 'data-convo-step', id: step.key, data: step });
    for (const call of step.tool_calls ?? [])
      parts.push({
        type: 'dynamic-tool',
        toolCallId: call.tool_use_id,
        toolName: call.name,
        title: toolTitle(call),
        state: 'output-available',
        input: call.input,
        output: toolOutput(step),
      });
  }
  if (turn.content !== '') parts.push({ type: 'text', text: turn.content, state: 'done' });
  return parts;
}

/** A saved turn's message metadata: its chat and id, its status (when one of the contract's) and usage. */
function metadataOf(turn: Message): ConvoMetadata {
  return {
    convo: {
      chatId: turn.chat_id,
      turnId: turn.id,
      ...(STATUSES.has(turn.status) ? { status: turn.status as TurnStatus } : {}),
      usage: turn.usage,
    },
  };
}
