import type { ChatRequestOptions, ChatTransport, UIMessageChunk } from 'ai';
import type {
  ActionResult,
  Client,
  RequestOptions,
  StreamOptions,
  ToolApproval,
  TurnStream,
  TurnStreamBody,
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
import { MAX_PAUSED_READS, PausedReads } from './paused.js';
import { type LiveTurn, liveTurn, type StopMode, segmentStream } from './readable.js';
import { boundedRecords, type TurnRecordStore } from './records.js';
import type { TransportCall } from './transport-spans.js';
import { checkChatId, checkMessages, invalid } from './validate.js';

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
  /**
   * Where the last turn of each chat is kept for `reconnectToStream` and a tool approval's continuation;
   * when absent, in memory for at most `MAX_RECORDS` (1000) chats, least recently used forgotten first.
   * A turn that ended with its whole message delivered is forgotten at once.
   */
  records?: TurnRecordStore | undefined;
  /**
   * How many reads paused at a tool approval are held open at once, each until its approval's deadline
   * (default `MAX_PAUSED_READS`, 100; an integer from 0): holding one more releases the least recently
   * held. A released read's turn waits on the service, and its answer reads it again by its key.
   */
  maxPausedReads?: number | undefined;
  /**
   * Told of every turn stream the transport makes (a send, a resume, a continuation read by key) before it
   * is read: a server can then cancel that turn with `TurnStream.cancel()`, which, before the turn started,
   * is sent once it starts (`createChatRoute` does, for a stop that comes while the turn is opening).
   */
  opened?: ((chatId: string, stream: TurnStream) => void) | undefined;
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
  readonly #opened: ((chatId: string, stream: TurnStream) => void) | undefined;
  /**
   * Turns waiting for a tool approval, by chat, still being read: the answer continues the same read, so
   * the rest of the turn streams live. Released at the approval's deadline, when the chat sends another
   * turn, or beyond `maxPausedReads`.
   */
  readonly #paused: PausedReads;

  /**
   * A transport over `options.client`. One transport may serve every chat (and every user of a server
   * route): it keeps only a bounded record of each chat's last turn, and at most `maxPausedReads` reads
   * held open.
   */
  constructor(options: ConvoChatTransportOptions) {
    this.#client = options.client;
    this.#turn = options.turn ?? {};
    this.#stop = options.stop ?? 'cancel';
    this.#stream = options.stream;
    this.#records = options.records ?? boundedRecords();
    this.#opened = options.opened;
    const max = options.maxPausedReads ?? MAX_PAUSED_READS;
    if (!Number.isInteger(max) || max < 0) throw invalid('maxPausedReads', 'must be an integer from 0');
    this.#paused = new PausedReads(max);
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
    return traced('send', options, () => this.#send(options));
  }

  async #send(
    options: Parameters<ConvoChatTransport['sendMessages']>[0],
  ): Promise<ReadableStream<UIMessageChunk>> {
    const { chatId, messages, abortSignal } = options;
    checkChatId(chatId);
    checkMessages(messages);
    const last = messages[messages.length - 1] as ConvoUIMessage;
    const decisions = approvalDecisions(last);
    if (decisions.size > 0) return this.#continue(chatId, messages, last, decisions, abortSignal);
    if (last.role !== 'user')
      throw invalid('messages', "the last message must be the user's, or answer tool approvals");
    const body = { ...this.#fields(options.body), content: promptText(last) };
    this.#paused.release(chatId);
    const stream = this.#open(chatId, body);
    const record = {
      messageId: `convo-${stream.idempotencyKey}`,
      idempotencyKey: stream.idempotencyKey,
      body,
    };
    this.#records.set(chatId, record);
    const context = { ...record, chatId, shown: '', tools: new Set<string>() };
    return this.#segment(liveTurn(stream), context, abortSignal);
  }

  /** Reads the chat's last turn again from its start (live or finished); null when none is known. */
  async reconnectToStream(
    options: { chatId: string; abortSignal?: AbortSignal } & ChatRequestOptions,
  ): Promise<ReadableStream<UIMessageChunk> | null> {
    return traced('resume', options, () => this.#reconnect(options));
  }

  async #reconnect(options: {
    chatId: string;
    abortSignal?: AbortSignal;
  }): Promise<ReadableStream<UIMessageChunk> | null> {
    const record = this.#records.get(options.chatId);
    if (!record) return null;
    this.#paused.release(options.chatId);
    const stream = this.#open(options.chatId, record.body, record.idempotencyKey);
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
    const live = this.#paused.take(chatId, idempotencyKey);
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
      tools: new Set(last.parts.flatMap((part) => (isToolPart(part) ? [part.toolCallId] : []))),
      decisions: new Map([...decisions.values()].flatMap((tools) => [...tools])),
      // What the page shows before the answer: a page reloaded while this segment streams has none of it.
      restate: last.parts,
    };
    if (live) return this.#segment(live.turn, context, abortSignal);
    // The body of the first send: this transport's record of it, else this transport's own fields, never
    // fields the browser wrote (it could choose `permission_mode` or `model_id` for the server's credential).
    // The key from the message is kept: a transport that lost the record (another server process) can
    // continue only with it, and it replays no one else's turn: keys are random UUIDs the service scopes
    // to the credential, only the browser that got the message knows it, and a key sent with a body other
    // than its turn's (the transport's fields and this prompt) answers 409 `api_v1_idempotency_conflict`.
    // A route serving many users must still check that the chat id belongs to the user (see docs/ai-sdk.md).
    const record = this.#records.get(chatId);
    const body =
      record?.idempotencyKey === idempotencyKey
        ? record.body
        : { ...this.#turn, content: promptText(prompt) };
    const stream = this.#open(chatId, body, idempotencyKey);
    const after = [...decisions.keys()].at(-1);
    return this.#segment(liveTurn(stream), { ...context, after }, abortSignal);
  }

  /** The turn's stream (nothing is sent before it is read), told to `opened`. */
  #open(chatId: string, body: TurnStreamBody, idempotencyKey?: string): TurnStream {
    const stream = this.#client.turns.stream(chatId, body, {
      ...this.#stream,
      ...(idempotencyKey ? { idempotencyKey } : {}),
    });
    this.#opened?.(chatId, stream);
    return stream;
  }

  /** A segment of `turn` whose pause at a tool approval is held for the answer (see `PausedReads`). */
  #segment(
    turn: LiveTurn,
    context: SegmentContext,
    signal: AbortSignal | undefined,
  ): ReadableStream<UIMessageChunk> {
    const { chatId } = context;
    const paused = (approval: ToolApproval) => this.#paused.hold(chatId, turn, approval);
    // The turn ended and its whole message was delivered: nothing will read it again.
    const ended = () => {
      if (this.#records.get(chatId)?.idempotencyKey === context.idempotencyKey)
        this.#records.delete?.(chatId);
    };
    return segmentStream(turn, context, this.#stop, signal, paused, ended) as ReadableStream<UIMessageChunk>;
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

/**
 * Where `@opentelemetry/api` 1.x keeps what is registered with it, shared by every copy of the API: read
 * here without loading the API, as the client's telemetry gate does.
 */
const OTEL = Symbol.for('opentelemetry.js.api.1');

/**
 * `run` in a span of its own when a tracer provider is registered (`transport-spans.ts`, loaded then with
 * `@opentelemetry/api`); else `run` itself: a page that records nothing loads neither.
 */
const traced = <S extends ReadableStream<UIMessageChunk> | null>(
  call: TransportCall,
  options: { chatId: string; trigger?: string },
  run: () => Promise<S>,
): Promise<S> =>
  (globalThis as { [OTEL]?: { trace?: unknown } })[OTEL]?.trace
    ? import('./transport-spans.js').then((spans) => spans.transportSpan(call, options, run))
    : run();

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

/** Whether a part is a tool call's (which the shape check gave a string `toolCallId`). */
function isToolPart(
  part: ConvoUIMessage['parts'][number],
): part is Extract<typeof part, { toolCallId: string }> {
  return part.type === 'dynamic-tool' || part.type.startsWith('tool-');
}
