import type { ChatRequestOptions, ChatTransport, UIMessageChunk } from 'ai';
import {
  type ActionResult,
  type Client,
  type RequestOptions,
  type StreamOptions,
  type ToolApproval,
  type TurnStreamBody,
  ValidationError,
} from '../index.js';
import { answerInteraction } from './answer.js';
import type { SegmentContext } from './chunks.js';
import {
  type ConvoUIMessage,
  type InteractionAnswer,
  type InteractionData,
  messageText,
  type TurnFields,
} from './parts.js';
import { type LiveTurn, liveTurn, type StopMode, segmentStream } from './readable.js';

/** The last turn of a chat: what `reconnectToStream` sends again to read it from its start. */
export interface TurnRecord {
  /** The UI message the turn writes. */
  messageId: string;
  /** The turn's key. */
  idempotencyKey: string;
  /** What was sent. */
  body: TurnStreamBody;
}

/** Where the transport keeps the last turn of each chat (in memory by default; `sessionStorage` survives a reload). */
export interface TurnRecordStore {
  /** The chat's last turn, if known. */
  get(chatId: string): TurnRecord | undefined;
  /** Keeps the chat's last turn. */
  set(chatId: string, record: TurnRecord): void;
}

/** Options of `ConvoChatTransport`. */
export interface ConvoChatTransportOptions {
  /** The client that sends the turns and the answers. */
  client: Client;
  /** Sent with every turn (`model_id`, `permission_mode`, `attachments`, `metadata`); a request's `body` overrides. */
  turn?: TurnFields | undefined;
  /** What the chat's `stop()` does to the turn: `cancel` it on the service (default), or `abort` reading only. */
  stop?: StopMode | undefined;
  /** Options of each streamed turn (`idleTimeout`, `maxResumes`, `timeout`...). */
  stream?: Omit<StreamOptions, 'idempotencyKey' | 'signal' | 'cancelOnAbort'> | undefined;
  /** Where the last turn of each chat is kept for `reconnectToStream`; in memory when absent. */
  records?: TurnRecordStore | undefined;
}

/** A turn read up to a tool approval, kept for the answer. */
interface Paused {
  turn: LiveTurn;
  approval: ToolApproval;
  timer: ReturnType<typeof setTimeout>;
}

/** The fields of a request's `body` that go into the turn. */
const TURN_FIELDS = ['model_id', 'permission_mode', 'attachments', 'metadata'] as const;

/**
 * The AI SDK's `ChatTransport` over this service: `useChat({ id: chat.id, transport })` streams turns of
 * the service's chat `chat.id`. Tool approvals use the AI SDK's own flow (`addToolApprovalResponse` with
 * `sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses`) and continue the same
 * assistant message; other interactions are `data-convo-interaction` parts answered with `answer()`.
 * Show a message with `messageText(message)`: after a failover it drops the text the service discarded.
 */
export class ConvoChatTransport implements ChatTransport<ConvoUIMessage> {
  /** `reconnectToStream` reads the turn again from its start: the AI SDK rebuilds the message. */
  readonly resumeStreamIsReplay = true;
  readonly #client: Client;
  readonly #turn: TurnFields;
  readonly #stop: StopMode;
  readonly #stream: ConvoChatTransportOptions['stream'];
  readonly #records: TurnRecordStore;
  /**
   * Turns waiting for a tool approval, by chat, still being read: the answer continues the same read, so
   * the rest of the turn streams live. Dropped at the approval's deadline or when the chat sends another turn.
   */
  readonly #paused = new Map<string, Paused>();

  constructor(options: ConvoChatTransportOptions) {
    this.#client = options.client;
    this.#turn = options.turn ?? {};
    this.#stop = options.stop ?? 'cancel';
    this.#stream = options.stream;
    this.#records = options.records ?? new Map<string, TurnRecord>();
  }

  /**
   * Streams a turn for the last user message (`regenerate-message`: the same prompt again, under a new
   * key), or, when the last message is the assistant's with tool approvals answered, sends the decisions
   * (`approve-tool`) and continues that message with the rest of the turn.
   */
  async sendMessages(
    options: {
      trigger: 'submit-message' | 'regenerate-message';
      chatId: string;
      messageId: string | undefined;
      messages: ConvoUIMessage[];
      abortSignal: AbortSignal | undefined;
    } & ChatRequestOptions,
  ): Promise<ReadableStream<UIMessageChunk>> {
    const { chatId, messages, abortSignal } = options;
    if (!Array.isArray(messages) || messages.length === 0)
      throw invalid('messages', 'must be a non-empty array');
    const last = messages[messages.length - 1] as ConvoUIMessage | null;
    if (typeof last !== 'object' || last === null)
      throw invalid('messages', 'the last message must be an object');
    const decisions = approvalDecisions(last);
    if (decisions.size > 0) return this.#continue(chatId, messages, last, decisions, abortSignal);
    if (last.role !== 'user')
      throw invalid('messages', "the last message must be the user's, or answer tool approvals");
    const fields = this.#fields(options.body);
    const body = { ...fields, content: promptText(last) };
    this.#drop(chatId);
    const stream = this.#client.turns.stream(chatId, body, { ...this.#stream });
    const record = {
      messageId: `convo-${stream.idempotencyKey}`,
      idempotencyKey: stream.idempotencyKey,
      body,
    };
    this.#records.set(chatId, record);
    const context = { ...record, chatId, fields, shown: '', tools: new Set<string>() };
    return this.#segment(liveTurn(stream), context, abortSignal);
  }

  /** Reads the chat's last turn again from its start (live or finished); null when none is known. */
  async reconnectToStream(
    options: { chatId: string; abortSignal?: AbortSignal } & ChatRequestOptions,
  ): Promise<ReadableStream<UIMessageChunk> | null> {
    const record = this.#records.get(options.chatId);
    if (!record) return null;
    this.#drop(options.chatId);
    const stream = this.#client.turns.stream(options.chatId, record.body, {
      ...this.#stream,
      idempotencyKey: record.idempotencyKey,
    });
    const context = { ...record, chatId: options.chatId, shown: '', tools: new Set<string>() };
    return this.#segment(liveTurn(stream), context, options.abortSignal);
  }

  /** Answers a `data-convo-interaction` part with the user's choice (see `answerInteraction`). */
  answer<D extends InteractionData>(
    data: D,
    answer: InteractionAnswer<D['kind']>,
    options?: RequestOptions,
  ): Promise<ActionResult> {
    return answerInteraction(this.#client, data, answer, options);
  }

  /**
   * Sends the tool decisions, then continues the message with the rest of the turn: on the read that
   * paused at the approval when this transport still holds it, else on the turn read again by its key
   * (the service answers that once the turn has finished), from after the approval.
   */
  async #continue(
    chatId: string,
    messages: ConvoUIMessage[],
    last: ConvoUIMessage,
    decisions: Map<string, Map<string, boolean>>,
    abortSignal: AbortSignal | undefined,
  ): Promise<ReadableStream<UIMessageChunk>> {
    const idempotencyKey = last.metadata?.convo?.idempotencyKey;
    const prompt = messages.findLast((message) => message.role === 'user');
    if (typeof idempotencyKey !== 'string' || !prompt)
      throw invalid('messages', 'the assistant message carries no turn key (metadata.convo.idempotencyKey)');
    const paused = this.#paused.get(chatId);
    const live = paused?.turn.stream.idempotencyKey === idempotencyKey ? paused : undefined;
    this.#paused.delete(chatId);
    if (live) clearTimeout(live.timer);
    try {
      for (const [action_id, tools] of decisions) {
        if (live?.approval.action_id === action_id)
          await live.approval.decide(Object.fromEntries(tools), { signal: abortSignal });
        else {
          const list = [...tools].map(([tool_use_id, approved]) => ({ tool_use_id, approved }));
          await this.#client.actions.approveTool(
            chatId,
            { action_id, decisions: list },
            { signal: abortSignal },
          );
        }
      }
    } catch (error) {
      live?.turn.stream.abort();
      throw error;
    }
    const context: SegmentContext = {
      messageId: last.id,
      chatId,
      idempotencyKey,
      shown: messageText(last),
      tools: new Set(last.parts.flatMap((part) => ('toolCallId' in part ? [part.toolCallId] : []))),
      decisions: new Map([...decisions.values()].flatMap((tools) => [...tools])),
    };
    if (live) return this.#segment(live.turn, context, abortSignal);
    // The body of the first send: this transport's record of it, else the fields the message kept.
    const record = this.#records.get(chatId);
    const body =
      record?.idempotencyKey === idempotencyKey
        ? record.body
        : { ...last.metadata?.convo?.fields, content: promptText(prompt) };
    const stream = this.#client.turns.stream(chatId, body, { ...this.#stream, idempotencyKey });
    const after = [...decisions.keys()].at(-1);
    return this.#segment(liveTurn(stream), { ...context, after }, abortSignal);
  }

  /** A segment of `turn` whose pause at a tool approval is kept for the answer, until its deadline. */
  #segment(
    turn: LiveTurn,
    context: SegmentContext,
    signal: AbortSignal | undefined,
  ): ReadableStream<UIMessageChunk> {
    const { chatId } = context;
    const paused = (approval: ToolApproval) => {
      this.#drop(chatId);
      const timer = setTimeout(() => {
        if (this.#paused.get(chatId)?.turn === turn) this.#drop(chatId);
      }, approval.expiresAt - Date.now());
      // A pending approval does not keep a Node process alive.
      (timer as { unref?: () => void }).unref?.();
      this.#paused.set(chatId, { turn, approval, timer });
    };
    return segmentStream(turn, context, this.#stop, signal, paused) as ReadableStream<UIMessageChunk>;
  }

  /** Stops reading the chat's paused turn, if any (the turn itself waits on the service until its deadline). */
  #drop(chatId: string): void {
    const paused = this.#paused.get(chatId);
    if (!paused) return;
    this.#paused.delete(chatId);
    clearTimeout(paused.timer);
    paused.turn.stream.abort();
  }

  /** The turn's fields: the transport's, then those of the request's `body`. */
  #fields(request: object | undefined): TurnFields {
    const fields: Record<string, unknown> = { ...this.#turn };
    if (request)
      for (const name of TURN_FIELDS)
        if (name in request) fields[name] = (request as Record<string, unknown>)[name];
    return fields as TurnFields;
  }
}

/** A message's text parts joined: the turn's content. */
function promptText(message: ConvoUIMessage): string {
  return (Array.isArray(message.parts) ? message.parts : [])
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n');
}

/**
 * The answered tool approvals of a message, by action id then tool call id: the tool parts this mapping
 * wrote (their action id is in `callProviderMetadata.convo`) whose approval was responded.
 */
function approvalDecisions(message: ConvoUIMessage): Map<string, Map<string, boolean>> {
  const byAction = new Map<string, Map<string, boolean>>();
  if (message?.role !== 'assistant' || !Array.isArray(message.parts)) return byAction;
  for (const part of message.parts) {
    if (part.type !== 'dynamic-tool' || part.state !== 'approval-responded') continue;
    const actionId = part.callProviderMetadata?.convo?.actionId;
    if (typeof actionId !== 'string') continue;
    const tools = byAction.get(actionId) ?? new Map<string, boolean>();
    tools.set(part.toolCallId, part.approval.approved);
    byAction.set(actionId, tools);
  }
  return byAction;
}

function invalid(field: string, message: string): ValidationError {
  return new ValidationError([{ field, message }]);
}
