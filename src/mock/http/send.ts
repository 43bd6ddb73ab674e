import { parseScript, scriptIssues } from '../model/directives.js';
import { createChat, visibleChatOrNew } from '../state/chat-records.js';
import { bindKey, boundTurn, fingerprint, turnInProgress } from '../state/idempotency.js';
import type { TurnChannel, TurnRecord } from '../state/records.js';
import type { CredentialRecord, MockStore } from '../state/store.js';
import type { TurnEngine } from '../turns/engine.js';
import type { LiveTurn } from '../turns/live.js';
import { validationFailure } from '../wire/input.js';
import { ApiFailure } from '../wire/respond.js';
import { type FaultRegistry, faultFailure } from './faults.js';
import { checkAttachmentsUsable, readSend } from './send-input.js';

/** What a send resolves to once every check passed: the replay of a finished key, or a new turn. */
export type SendOutcome = { kind: 'replay'; turn: TurnRecord } | { kind: 'run'; live: LiveTurn };

/** What the send routes share. */
export interface SendContext {
  /** The state. */
  store: MockStore;
  /** Runs the turns. */
  engine: TurnEngine;
  /** Faults on purpose. */
  faults: FaultRegistry;
}

/**
 * The common part of both sends, in the order the mock promises: the request's own checks (readSend),
 * the chat (404 when it is another credential's or deleted; an unknown id is created with that id), a
 * `respond` fault, the key (conflict, in progress, replay), then what only a new run needs: attachments
 * usable today (404), the directives' parameters (422, `DIRECTIVE_LIMITS`), busy (409 `api_v1_chat_busy`
 * with `data.message_id`). A replay comes before those: same key, same result, nothing re-checked against
 * today's state (4.3, 4.4). Nothing is stored before the run starts.
 */
export async function startSend(
  context: SendContext,
  credential: CredentialRecord,
  request: Request,
  rawChatId: string,
  channel: TurnChannel,
): Promise<SendOutcome> {
  const { store, engine, faults } = context;
  const route = channel === 'sync' ? 'send' : 'stream';
  const input = await readSend(store, credential, request, channel);
  const { chatId, chat } = visibleChatOrNew(store, credential, rawChatId);

  const before = faults.take(route, request, 'before');
  if (before && 'respond' in before) throw faultFailure(before.respond);

  const print = fingerprint(chatId, input.body);
  const replay = boundTurn(store, credential, input.key, print);
  if (replay) {
    if (faults.take(route, request, 'replay')) throw turnInProgress();
    return { kind: 'replay', turn: replay };
  }

  checkAttachmentsUsable(store, credential, input.attachments);
  if (engine.usesDirectives()) {
    const issues = scriptIssues(parseScript(input.content));
    if (issues.length > 0) throw validationFailure(issues);
  }
  const running = chat && engine.runningIn(chat.id);
  if (running) {
    throw new ApiFailure(409, 'api_v1_chat_busy', 'The chat already has a running turn.', {
      message_id: running.turn.id,
    });
  }

  // 3.4: a send to an unknown chat id creates the chat with that id, owned by the sending credential.
  const target =
    chat ??
    createChat(store, credential, {
      id: chatId,
      permission_mode: input.permission_mode,
      model_id: input.model_id,
    });
  const company = store.fixtures.companies.find((item) => item.id === credential.companyId);
  const live = engine.start({
    credential,
    chat: target,
    key: input.key,
    content: input.content,
    permission_mode: input.permission_mode,
    channel,
    model_id: input.model_id ?? target.model_id ?? company?.defaultModelId ?? 1,
    attachments: input.attachments,
    metadata: input.metadata,
    request_id: crypto.randomUUID(),
  });
  bindKey(store, credential, input.key, print, live.turn.id);
  return { kind: 'run', live };
}
