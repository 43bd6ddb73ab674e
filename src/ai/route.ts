import { JsonToSseTransformStream, UI_MESSAGE_STREAM_HEADERS } from 'ai';
import {
  ApiError,
  type Client,
  ConvoError,
  RedisUnavailableError,
  RouteCapacityError,
  type TurnStream,
  ValidationError,
} from '../index.js';
import type { ConvoUIMessage, TurnFields } from './parts.js';
import type { TurnRecord } from './records.js';
import { Holds, MAX_CALLER_BYTES, MAX_CALLER_STREAMS, MAX_HELD_BYTES } from './route-holds.js';
import {
  boundStream,
  MAX_ROUTE_BODY_BYTES,
  MAX_ROUTE_BODY_MS,
  MAX_ROUTE_STREAM_BYTES,
  MAX_ROUTE_STREAM_MS,
  MAX_STOP_WAIT_MS,
  readJson,
} from './route-limits.js';
import { type RouteRecordStore, RouteRecords } from './route-records.js';
import { RouteRedis, type RouteRedisOptions } from './route-redis.js';
import { type RouteAction, serverSpan } from './route-spans.js';
import { MAX_LIVE_STREAMS, memoryStreams, type RouteStreams } from './route-streams.js';
import { ConvoChatTransport, type ConvoChatTransportOptions } from './transport.js';
import { isChatId } from './validate.js';

/**
 * What `authorize` answers for a request and a chat: `false` refuses (404, nothing of the chat is read or
 * sent), `{ caller }` grants it to that caller (the signed-in user's id: each caller's share of the route is
 * bounded), `true` grants it with no caller named (the share is then bounded per chat).
 */
export type ChatGrant = boolean | { caller: string };

/** Whether the request may use the chat, and as whom: the signed-in user must own the chat. */
export type ChatAuthorizer = (request: Request, chatId: string) => ChatGrant | Promise<ChatGrant>;

/**
 * The explicit opt-out of `authorize`: every caller may read, stop and send into every chat whose id it
 * knows. For a route only one trusted user reaches (a demo, a test); never behind a login.
 */
export const EVERY_CHAT_TO_EVERY_CALLER = 'every-chat-to-every-caller';

/** Options of `createChatRoute`. */
export interface ChatRouteOptions {
  /** The client that sends the turns, with the server's credential. */
  client: Client;
  /**
   * Required: whether the request may use the chat, checked on every send, resume and stop (a refused chat
   * answers 404), and as which caller. `'every-chat-to-every-caller'` opts out: every caller gets every chat.
   */
  authorize: ChatAuthorizer | typeof EVERY_CHAT_TO_EVERY_CALLER;
  /** Sent with every turn (`model_id`, `permission_mode`, `attachments`, `metadata`). */
  turn?: TurnFields | undefined;
  /** Options of each streamed turn (`idleTimeout`, `maxResumes`, `timeout`...). */
  stream?: ConvoChatTransportOptions['stream'];
  /**
   * Several processes: the Redis they share, whose clients the route makes, watches and reconnects (the
   * `redis` and `resumable-stream` packages must be installed). Records and live answers go there.
   */
  redis?: RouteRedisOptions | undefined;
  /** Where live answers are held for a resume: `redis`'s, else `memoryStreams()` (one process). */
  streams?: RouteStreams | undefined;
  /** Where each chat's last turn is kept across processes: `redis`'s, else this process only. */
  records?: RouteRecordStore | undefined;
  /** The largest request body read, in bytes (default 4 MiB). */
  maxBodyBytes?: number | undefined;
  /** How long a request body is read at most, in milliseconds (default 10 s). */
  maxBodyMs?: number | undefined;
  /** The most buffered of one answer, in bytes (default 16 MiB). */
  maxStreamBytes?: number | undefined;
  /** How long one answer is read at most, in milliseconds (default 31 minutes). */
  maxStreamMs?: number | undefined;
  /** Live answers this process holds at once (default `MAX_LIVE_STREAMS`, 1000). */
  maxStreams?: number | undefined;
  /** Bytes of live answers this process holds for resumes (default `MAX_HELD_BYTES`, 128 MiB). */
  maxHeldBytes?: number | undefined;
  /** Bytes of live answers one caller's turns hold (default `MAX_CALLER_BYTES`, 32 MiB). */
  maxCallerBytes?: number | undefined;
  /** Live answers one caller holds at once (default `MAX_CALLER_STREAMS`, 16). */
  maxCallerStreams?: number | undefined;
}

/** A route handler for `useChat` with `ConvoRouteTransport`: every method and sub-path under its mount point. */
export interface ChatRoute {
  /** Answers `POST {api}` (a turn), `GET {api}/{chatId}/stream` (a resume; 204: nothing to resume) and `POST {api}/{chatId}/stop`. */
  handle(request: Request): Promise<Response>;
  /** `handle`, as a Next.js App Router file's `GET`. */
  GET(request: Request): Promise<Response>;
  /** `handle`, as a Next.js App Router file's `POST`. */
  POST(request: Request): Promise<Response>;
  /** Closes the Redis clients the route made (turns still streaming stream on). */
  close(): Promise<void>;
}

/** What `useChat`'s HTTP transport posts. */
interface SendBody {
  id: string;
  messages: unknown;
  trigger: 'submit-message' | 'regenerate-message';
  messageId?: string | undefined;
}

/** A request, as the route reads it: what it asks and of which chat. */
type Asked =
  | { action: 'send'; chatId: string; body: SendBody }
  | { action: 'resume' | 'stop'; chatId: string };

/** What a request asks of the route, from its method and the last two segments of its path. */
type Action = RouteAction | 'unknown';

/** The request's action: a resume (`GET …/{chatId}/stream`), a stop (`POST …/{chatId}/stop`), else a send (`POST`). */
function actionOf(request: Request): Action {
  // Two segments when the last is `stream` or `stop` (empty ones are dropped): the first is the chat id.
  const [, action] = pathTail(request);
  if (request.method === 'GET' && action === 'stream') return 'resume';
  if (request.method === 'POST' && action === 'stop') return 'stop';
  return request.method === 'POST' ? 'send' : 'unknown';
}

/** The last two segments of the request's path. */
const pathTail = (request: Request) => new URL(request.url).pathname.split('/').filter(Boolean).slice(-2);

/** The chat id segment of a resume's or a stop's path. */
const chatIdOf = (request: Request) => pathTail(request)[0] as string;

/**
 * A server route for `useChat` that survives a reload: a request that closes (reload, tab closed, network)
 * leaves the turn running and its answer held, so `GET {api}/{chatId}/stream` reads it again from its start
 * and follows it live; only `POST {api}/{chatId}/stop` (what `ConvoRouteTransport` sends on `stop()`)
 * cancels the turn. An answer no longer held (its process died, or it ended) is read again by the turn's
 * key (the service replays it, 4.4). Throws a `ValidationError` naming `authorize` when it is missing.
 */
export function createChatRoute(options: ChatRouteOptions): ChatRoute {
  const router = new ChatRouter(options);
  const handle = (request: Request) => router.handle(request);
  return { handle, GET: handle, POST: handle, close: () => router.close() };
}

/** The route: one dispatch of send, resume and stop, each behind `authorize`. */
class ChatRouter {
  readonly #client: Client;
  readonly #options: ChatRouteOptions;
  readonly #authorize: ChatAuthorizer | undefined;
  readonly #redis: RouteRedis | undefined;
  readonly #records: RouteRecords;
  readonly #holds: Holds;
  readonly #transport: ConvoChatTransport;
  /**
   * The turn this process reads for each chat, from before it opens until its read ends: a stop cancels
   * it through its stream, which holds a cancel made before the turn started until it starts.
   */
  readonly #reading = new Map<string, TurnStream>();

  constructor(options: ChatRouteOptions) {
    const { authorize } = options;
    if (typeof authorize !== 'function' && authorize !== EVERY_CHAT_TO_EVERY_CALLER)
      throw new ValidationError([
        {
          field: 'authorize',
          message: `is required: a function that checks the request's user owns the chat (or '${EVERY_CHAT_TO_EVERY_CALLER}' to give every chat to every caller)`,
        },
      ]);
    this.#client = options.client;
    this.#options = options;
    this.#authorize = typeof authorize === 'function' ? authorize : undefined;
    this.#redis = options.redis ? new RouteRedis(options.redis, () => this.#rewrite()) : undefined;
    this.#records = new RouteRecords(
      options.records ?? this.#redis?.records,
      (chatId, key) => this.#reading.get(chatId)?.idempotencyKey === key,
    );
    this.#holds = new Holds(options.streams ?? this.#redis?.streams ?? memoryStreams(), {
      maxStreams: options.maxStreams ?? MAX_LIVE_STREAMS,
      maxBytes: options.maxHeldBytes ?? MAX_HELD_BYTES,
      callerBytes: options.maxCallerBytes ?? MAX_CALLER_BYTES,
      callerStreams: options.maxCallerStreams ?? MAX_CALLER_STREAMS,
    });
    // `abort`: the route cancels only on an explicit stop; a stream cancelled stops reading, never the turn.
    this.#transport = new ConvoChatTransport({
      client: options.client,
      turn: options.turn,
      stream: options.stream,
      stop: 'abort',
      records: this.#records.transport,
      opened: (chatId, stream) => this.#opened(chatId, stream),
    });
  }

  /**
   * The one place each request is dispatched: its action from the method and path, then, inside the action's
   * SERVER span (when a tracer provider is registered), read, authorized and answered; every failure is an
   * error answer.
   */
  handle(request: Request): Promise<Response> {
    const action = actionOf(request);
    if (action === 'unknown')
      return Promise.resolve(failure(405, 'MethodNotAllowed', `${request.method} is not answered here`));
    return serverSpan(action, request, () => this.#dispatch(action, request));
  }

  close(): Promise<void> {
    return this.#redis?.close() ?? Promise.resolve();
  }

  /** Reads, authorizes and answers one request of a known action. */
  async #dispatch(action: RouteAction, request: Request): Promise<Response> {
    try {
      const asked = await this.#asked(action, request);
      if (!isChatId(asked.chatId))
        throw new ValidationError([{ field: 'chatId', message: "must be a UUID (the service's chat id)" }]);
      const grant = await this.#grant(request, asked.chatId);
      if (!grant) return notFound();
      switch (asked.action) {
        case 'send':
          return await this.#send(asked.body, grant.caller);
        case 'resume':
          return await this.#resume(asked.chatId, grant.caller);
        case 'stop':
          return await this.#stop(asked.chatId, grant.chatWide);
      }
    } catch (error) {
      return errorResponse(error);
    }
  }

  async #asked(action: RouteAction, request: Request): Promise<Asked> {
    if (action !== 'send') return { action, chatId: decoded(chatIdOf(request)) };
    const maxBytes = this.#options.maxBodyBytes ?? MAX_ROUTE_BODY_BYTES;
    const maxMs = this.#options.maxBodyMs ?? MAX_ROUTE_BODY_MS;
    const body = checkSend(await readJson(request, maxBytes, maxMs));
    return { action: 'send', chatId: body.id, body };
  }

  /** `authorize`'s answer: the caller whose share the turn counts in, and whether a chat-wide cancel may be sent. */
  async #grant(request: Request, chatId: string) {
    const grant = this.#authorize ? await this.#authorize(request, chatId) : true;
    if (!grant) return undefined;
    const caller = typeof grant === 'object' ? `caller:${grant.caller}` : `chat:${chatId}`;
    return { caller, chatWide: this.#authorize !== undefined };
  }

  async #send(body: SendBody, caller: string): Promise<Response> {
    // Refused before anything is sent: Redis away, or no room for the answer.
    await this.#redis?.ready();
    this.#holds.admit(caller);
    // The chat's last turn, here: a tool approval's continuation sends that turn's body again.
    await this.#records.load(body.id);
    const ui = await this.#transport.sendMessages({
      chatId: body.id,
      messages: body.messages as never,
      trigger: body.trigger,
      messageId: body.messageId,
      abortSignal: undefined,
    });
    // A new turn's record (the transport kept it), or the continued turn's when this is the one recorded.
    const record = this.#records.transport.get(body.id);
    const continued = continuedKey(body.messages as ConvoUIMessage[]);
    const answered =
      record && (continued === undefined || record.idempotencyKey === continued) ? record : undefined;
    // Written before the answer starts: a resume or a stop on another process finds it.
    await this.#records.settled(body.id);
    return this.#answer(body.id, answered, caller, ui, true);
  }

  async #resume(chatId: string, caller: string): Promise<Response> {
    const record = await this.#records.load(chatId);
    if (!record) return new Response(null, { status: 204 });
    const held = await this.#holds.resume(streamIdOf(chatId, record));
    if (held) return respond(held, () => this.#records.delivered(chatId, record.idempotencyKey));
    // Not held (ended, its process gone, Redis away): the service replays the turn by its key. That read
    // is not held in its turn: the process that holds the turn may still be alive, and two would feed it.
    const ui = await this.#transport.reconnectToStream({ chatId });
    return ui ? this.#answer(chatId, record, caller, ui, false) : new Response(null, { status: 204 });
  }

  async #stop(chatId: string, chatWide: boolean): Promise<Response> {
    const deadline = AbortSignal.timeout(MAX_STOP_WAIT_MS);
    const record = await this.#records.load(chatId);
    // The turn read here, when it is the one the record names: a read paused at a tool approval whose
    // answer went through another process is an earlier turn, over since.
    const here = this.#reading.get(chatId);
    const turn = here && (!record || here.idempotencyKey === record.idempotencyKey) ? here : undefined;
    const running = record !== undefined && !record.ended;
    // Read here, the turn is cancelled through its stream: a turn still opening (no `message.start` yet)
    // is cancelled as soon as it starts, not missed. Read elsewhere (another process, or one that died),
    // the chat's live turn (4.6), which is the one the record names while it has not ended. With no record
    // left (a restart without Redis), the chat's live turn, only for a chat `authorize` granted.
    const cancelling = turn
      ? turn.cancel()
      : running
        ? this.#cancelStarting(chatId, deadline)
        : !record && chatWide
          ? this.#client.turns.cancel(chatId)
          : undefined;
    const first = cancelling
      ? await within(
          cancelling.then((result) => result.cancelled),
          deadline,
          false,
        )
      : false;
    if (record) await this.#records.forget(chatId, record.idempotencyKey);
    // A 200 means the cancel was delivered (4.6), not that the turn ended: answer once it has ended, so
    // that the page's next send finds the chat free rather than 409 `api_v1_chat_busy`.
    const later = running ? await this.#ended(chatId, record, !turn, deadline) : false;
    return Response.json({ cancelled: first || later });
  }

  /**
   * The chat's live turn cancelled (4.6), for a turn read by another process: asked again for a few seconds
   * while the service has none running yet (that process may still be opening it).
   */
  async #cancelStarting(chatId: string, deadline: AbortSignal) {
    const until = Date.now() + STOP_RETRY_MS;
    for (;;) {
      const result = await this.#client.turns.cancel(chatId);
      if (result.cancelled || deadline.aborted || Date.now() >= until) return result;
      await new Promise((resolve) => setTimeout(resolve, STOP_RETRY_EVERY_MS));
    }
  }

  /**
   * Waits, until `deadline`, for the chat's turn to end: its answer held (here, or by a live process through
   * Redis), else the turn read again by its key to its terminal event (4.4). `cancel`: that read also cancels
   * the turn once it starts (a send still opening in another process: a read by key may be what starts it);
   * whether it did.
   */
  async #ended(chatId: string, record: TurnRecord, cancel: boolean, deadline: AbortSignal) {
    const held = await this.#holds.resume(streamIdOf(chatId, record));
    if (held) {
      await drained(held, deadline);
      return false;
    }
    const again = this.#client.turns.stream(chatId, record.body, {
      ...this.#options.stream,
      idempotencyKey: record.idempotencyKey,
      signal: deadline,
    });
    const cancelled = cancel ? again.cancel().catch(() => undefined) : undefined;
    await again.done().catch(() => {});
    return (await cancelled)?.cancelled === true;
  }

  /**
   * The answer to the page, forgotten once delivered to the turn's end; `held`: held for resumes under the
   * turn's key (when the turn has a record).
   */
  async #answer(
    chatId: string,
    record: TurnRecord | undefined,
    caller: string,
    ui: ReadableStream<unknown>,
    held: boolean,
  ): Promise<Response> {
    const bounds = {
      maxBytes: this.#options.maxStreamBytes ?? MAX_ROUTE_STREAM_BYTES,
      maxMs: this.#options.maxStreamMs ?? MAX_ROUTE_STREAM_MS,
    };
    const sse = () => boundStream(ui.pipeThrough(new JsonToSseTransformStream()), bounds);
    if (!record) return respond(sse(), async () => {});
    const delivered = () => this.#records.delivered(chatId, record.idempotencyKey);
    if (!held) return respond(sse(), delivered);
    try {
      const page = await this.#holds.open(streamIdOf(chatId, record), caller, sse, () =>
        this.#records.settled(chatId),
      );
      return respond(page, delivered);
    } catch (error) {
      // Never read: no turn was opened, and nothing will end this one's read.
      await ui.cancel().catch(() => {});
      this.#reading.delete(chatId);
      throw error;
    }
  }

  /**
   * Writes again the records of the turns whose answers this process reads now: a Redis that restarted
   * empty lost them. Not a read paused at an approval: its turn may have gone on through another process.
   */
  #rewrite(): void {
    for (const chatId of this.#reading.keys()) {
      const record = this.#records.transport.get(chatId);
      if (record && this.#holds.reading(streamIdOf(chatId, record))) this.#records.keep(chatId, record);
    }
  }

  #opened(chatId: string, stream: TurnStream): void {
    this.#reading.set(chatId, stream);
    const over = () => {
      if (this.#reading.get(chatId) === stream) this.#reading.delete(chatId);
    };
    stream.on('end', over).on('error', over);
  }
}

/** Reads `stream` to its end, or until `deadline` (which cancels it); an answer that failed is over all the same. */
async function drained(stream: ReadableStream<string>, deadline: AbortSignal): Promise<void> {
  await stream.pipeTo(new WritableStream(), { signal: deadline }).catch(() => {});
}

/** `promise`'s outcome, or `fallback` once `deadline` passed first. */
async function within<T>(promise: Promise<T>, deadline: AbortSignal, fallback: T): Promise<T> {
  const late = new Promise<T>((resolve) => {
    if (deadline.aborted) resolve(fallback);
    // A signal aborts once: its listener needs no removal.
    deadline.addEventListener('abort', () => resolve(fallback));
  });
  return Promise.race([promise, late]);
}

/** How long a stop asks again for a turn another process is still opening, and how often. */
const STOP_RETRY_MS = 3000;
const STOP_RETRY_EVERY_MS = 200;

/** The id an answer is held under: one per turn of a chat. */
const streamIdOf = (chatId: string, record: TurnRecord) => `convo:${chatId}:${record.idempotencyKey}`;

/**
 * The key of the turn a tool approval's answer continues: the last message's, when it is the assistant's.
 * Read once the transport accepted `messages`: a list whose last message, when the assistant's, carries a key.
 */
function continuedKey(messages: ConvoUIMessage[]): string | undefined {
  const last = messages[messages.length - 1] as ConvoUIMessage;
  // Stryker disable next-line OptionalChaining: the transport refused an assistant's message without `metadata.convo.idempotencyKey`
  return last.role === 'assistant' ? last.metadata?.convo?.idempotencyKey : undefined;
}

/** A chat id from the path (a `ValidationError` naming `chatId` when it is not a URL component). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ValidationError([{ field: 'chatId', message: 'is not a valid URL path segment' }]);
  }
}

/** What `useChat`'s HTTP transport posts, checked as far as the route reads it. */
function checkSend(body: unknown): SendBody {
  const at = (field: string, message: string) => new ValidationError([{ field, message }]);
  if (typeof body !== 'object' || body === null) throw at('body', 'must be an object');
  const { id, trigger, messageId } = body as Record<string, unknown>;
  if (typeof id !== 'string') throw at('chatId', 'must be a string (the body\'s "id")');
  if (trigger !== 'submit-message' && trigger !== 'regenerate-message')
    throw at('trigger', "must be 'submit-message' or 'regenerate-message'");
  if (messageId !== undefined && typeof messageId !== 'string') throw at('messageId', 'must be a string');
  return body as SendBody;
}

/** The UI message stream response; `delivered` runs once it was read to its end. */
function respond(sse: ReadableStream<string>, delivered: () => Promise<void>): Response {
  const watch = new TransformStream<string, string>({
    async flush() {
      await delivered().catch(() => {});
    },
  });
  return new Response(sse.pipeThrough(watch).pipeThrough(new TextEncoderStream()), {
    headers: UI_MESSAGE_STREAM_HEADERS,
  });
}

const failure = (status: number, name: string, message: string, field?: string) =>
  Response.json({ error: { name, message, ...(field ? { field } : {}) } }, { status });

const notFound = () => failure(404, 'NotFound', 'no such chat');

/** A thrown error as the route's answer: its class names what was wrong; an `ApiError` keeps an error status. */
function errorResponse(error: unknown): Response {
  if (error instanceof ValidationError) return failure(400, error.name, error.message, error.field);
  if (error instanceof RouteCapacityError)
    return failure(error.scope === 'caller' ? 429 : 503, error.name, error.message);
  if (error instanceof RedisUnavailableError) return failure(503, error.name, error.message);
  // `Response` accepts 200 to 599 only: a service status outside the error range is a bad gateway.
  if (error instanceof ApiError)
    return failure(isErrorStatus(error.status) ? error.status : 502, error.name, error.message);
  if (error instanceof ConvoError) return failure(502, error.name, error.message);
  return failure(500, 'Error', 'the route failed');
}

const isErrorStatus = (status: number) => Number.isInteger(status) && status >= 400 && status <= 599;
