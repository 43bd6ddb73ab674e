import { JsonToSseTransformStream, UI_MESSAGE_STREAM_HEADERS } from 'ai';
import { ApiError, type Client, ConvoError, type TurnStream, ValidationError } from '../index.js';
import type { TurnFields } from './parts.js';
import { boundedRecords, type TurnRecord } from './records.js';
import {
  boundStream,
  MAX_ROUTE_BODY_BYTES,
  MAX_ROUTE_STREAM_BYTES,
  MAX_ROUTE_STREAM_MS,
  MAX_STOP_WAIT_MS,
  readJson,
} from './route-limits.js';
import { serverSpan } from './route-spans.js';
import { memoryStreams, RouteCapacityError, type RouteStreams } from './route-streams.js';
import { ConvoChatTransport, type ConvoChatTransportOptions } from './transport.js';

/**
 * Where the route keeps the last turn of each chat, for a resume: in memory by default (one process); give
 * every process the same store (Redis, a database) so that any of them can read a turn again by its key.
 */
export interface RouteRecordStore {
  /** The chat's last turn, if known. */
  get(chatId: string): TurnRecord | undefined | Promise<TurnRecord | undefined>;
  /** Keeps the chat's last turn. */
  set(chatId: string, record: TurnRecord): unknown;
  /** Forgets the chat's last turn: its whole answer was delivered, or it was stopped. */
  delete?(chatId: string): unknown;
}

/** Options of `createChatRoute`. */
export interface ChatRouteOptions {
  /** The client that sends the turns, with the server's credential. */
  client: Client;
  /** Sent with every turn (`model_id`, `permission_mode`, `attachments`, `metadata`). */
  turn?: TurnFields | undefined;
  /** Options of each streamed turn (`idleTimeout`, `maxResumes`, `timeout`...). */
  stream?: ConvoChatTransportOptions['stream'];
  /** Where answers are held for a resume: `memoryStreams()` by default; a `resumable-stream` context across processes. */
  streams?: RouteStreams | undefined;
  /** Where each chat's last turn is kept: in memory by default; shared across processes for a resume by key. */
  records?: RouteRecordStore | undefined;
  /** Whether the request may use the chat (the signed-in user's?); a chat refused answers 404. Default: every chat. */
  authorize?: ((request: Request, chatId: string) => boolean | Promise<boolean>) | undefined;
  /** The largest request body read, in bytes (default 4 MiB). */
  maxBodyBytes?: number | undefined;
  /** The most buffered of one answer, in bytes (default 16 MiB). */
  maxStreamBytes?: number | undefined;
  /** How long one answer is read at most, in milliseconds (default 31 minutes). */
  maxStreamMs?: number | undefined;
}

/** A route handler for `useChat` with `ConvoRouteTransport`: every method and sub-path under its mount point. */
export interface ChatRoute {
  /** Answers `POST {api}` (a turn), `GET {api}/{chatId}/stream` (a resume; 204: nothing to resume) and `POST {api}/{chatId}/stop`. */
  handle(request: Request): Promise<Response>;
  /** `handle`, as a Next.js App Router file's `GET`. */
  GET(request: Request): Promise<Response>;
  /** `handle`, as a Next.js App Router file's `POST`. */
  POST(request: Request): Promise<Response>;
}

/** What `useChat`'s HTTP transport posts. */
interface SendBody {
  id: string;
  messages: unknown;
  trigger: 'submit-message' | 'regenerate-message';
  messageId?: string | undefined;
}

/**
 * A server route for `useChat` that survives a reload: a request that closes (reload, tab closed, network)
 * leaves the turn running and its answer held, so `GET {api}/{chatId}/stream` reads it again from its start
 * and follows it live; only `POST {api}/{chatId}/stop` (what `ConvoRouteTransport` sends on `stop()`)
 * cancels the turn. An answer no longer held (another process without shared `streams`, or ended) is read
 * again by the turn's key from `records` (the service replays it, 4.4).
 */
export function createChatRoute(options: ChatRouteOptions): ChatRoute {
  const { client } = options;
  const streams = options.streams ?? memoryStreams();
  const records: RouteRecordStore = options.records ?? boundedRecords();
  // The transport's own records: the key it sends with, in this process (a resume from `records` sets it).
  const local = boundedRecords();
  // The turn this process reads for each chat, from before it opens until its read ends: a stop cancels
  // it through its stream, which holds a cancel made before the turn started until it starts.
  const reading = new Map<string, TurnStream>();
  const opened = (chatId: string, stream: TurnStream) => {
    reading.set(chatId, stream);
    const over = () => {
      if (reading.get(chatId) === stream) reading.delete(chatId);
    };
    stream.on('end', over).on('error', over);
  };
  // `abort`: the route cancels only on an explicit stop; a stream cancelled stops reading, never the turn.
  const transport = new ConvoChatTransport({
    client,
    turn: options.turn,
    stream: options.stream,
    stop: 'abort',
    records: local,
    opened,
  });
  const maxBody = options.maxBodyBytes ?? MAX_ROUTE_BODY_BYTES;
  const bounds = {
    maxBytes: options.maxStreamBytes ?? MAX_ROUTE_STREAM_BYTES,
    maxMs: options.maxStreamMs ?? MAX_ROUTE_STREAM_MS,
  };
  const allowed = async (request: Request, chatId: string) =>
    options.authorize ? await options.authorize(request, chatId) : true;

  /** The answer to the page: held for a resume under the turn's key, forgotten once read to the turn's end. */
  const answer = async (chatId: string, record: TurnRecord | undefined, ui: ReadableStream<unknown>) => {
    const sse = () => boundStream(ui.pipeThrough(new JsonToSseTransformStream()), bounds);
    const held = record ? await streams.createNewResumableStream(streamIdOf(chatId, record), sse) : null;
    return respond(held ?? sse(), () => forget(chatId, record));
  };
  const forget = async (chatId: string, record: TurnRecord | undefined) => {
    if (record && (await records.get(chatId))?.idempotencyKey === record.idempotencyKey)
      await records.delete?.(chatId);
  };

  const send = async (request: Request) => {
    const body = checkSend(await readJson(request, maxBody));
    if (!(await allowed(request, body.id))) return notFound();
    const ui = await transport.sendMessages({
      chatId: body.id,
      messages: body.messages as never,
      trigger: body.trigger,
      messageId: body.messageId,
      abortSignal: undefined,
    });
    // A new turn's record (or a continued one's, in the process that sent it); else the one kept before.
    const record = local.get(body.id) ?? (await records.get(body.id));
    if (record) await records.set(body.id, record);
    return answer(body.id, record, ui).catch(async (error: unknown) => {
      // Never read: no turn was opened, and nothing will end this one's read.
      await ui.cancel().catch(() => {});
      reading.delete(body.id);
      throw error;
    });
  };

  const resume = async (request: Request, chatId: string) => {
    if (!(await allowed(request, chatId))) return notFound();
    const record = await records.get(chatId);
    if (!record) return new Response(null, { status: 204 });
    const held = await streams.resumeExistingStream(streamIdOf(chatId, record));
    if (held) return respond(held, () => forget(chatId, record));
    // Not held here (ended, or sent by another process): the service replays the turn by its key.
    local.set(chatId, record);
    const ui = await transport.reconnectToStream({ chatId });
    return ui ? answer(chatId, record, ui) : new Response(null, { status: 204 });
  };

  const stop = async (request: Request, chatId: string) => {
    if (!(await allowed(request, chatId))) return notFound();
    const deadline = AbortSignal.timeout(MAX_STOP_WAIT_MS);
    const record = await records.get(chatId);
    const turn = reading.get(chatId);
    // Read here, the turn is cancelled through its stream: a turn still opening (no `message.start` yet)
    // is cancelled as soon as it starts, not missed. Elsewhere (another process), the chat's turn (4.6).
    const cancelling = turn ? turn.cancel() : client.turns.cancel(chatId);
    const first = await within(cancelling, deadline, { chat_id: chatId, cancelled: false });
    await records.delete?.(chatId);
    // A 200 means the cancel was delivered (4.6), not that the turn ended: answer once it has ended, so
    // that the page's next send finds the chat free rather than 409 `api_v1_chat_busy`.
    const later = record ? await ended(chatId, record, !turn, deadline) : false;
    return Response.json({ cancelled: first.cancelled || later });
  };

  /**
   * Waits, until `deadline`, for the chat's turn to end: its answer held here, else the turn read again
   * by its key to its terminal event (4.4). `cancel`: that read also cancels the turn once it starts (a
   * send still opening in another process: a read by key may be what starts it); whether it did.
   */
  const ended = async (chatId: string, record: TurnRecord, cancel: boolean, deadline: AbortSignal) => {
    const held = await streams.resumeExistingStream(streamIdOf(chatId, record));
    if (held) {
      await drained(held, deadline);
      return false;
    }
    const again = client.turns.stream(chatId, record.body, {
      ...options.stream,
      idempotencyKey: record.idempotencyKey,
      signal: deadline,
    });
    const cancelled = cancel ? again.cancel().catch(() => undefined) : undefined;
    await again.done().catch(() => {});
    return (await cancelled)?.cancelled === true;
  };

  const handle = async (request: Request): Promise<Response> => {
    try {
      const [chatId, action] = new URL(request.url).pathname.split('/').filter(Boolean).slice(-2);
      if (request.method === 'GET' && action === 'stream' && chatId)
        return await serverSpan('resume', request, () => resume(request, decoded(chatId)));
      if (request.method === 'POST' && action === 'stop' && chatId)
        return await serverSpan('stop', request, () => stop(request, decoded(chatId)));
      if (request.method === 'POST') return await serverSpan('send', request, () => send(request));
      return failure(405, 'MethodNotAllowed', `${request.method} is not answered here`);
    } catch (error) {
      return errorResponse(error);
    }
  };
  return { handle, GET: handle, POST: handle };
}

/** Reads `stream` to its end, or until `deadline`. */
async function drained(stream: ReadableStream<string>, deadline: AbortSignal): Promise<void> {
  const reader = stream.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  if (deadline.aborted) stop();
  deadline.addEventListener('abort', stop, { once: true });
  try {
    while (!(await reader.read()).done);
  } catch {
    // The answer failed: it is over all the same.
  } finally {
    deadline.removeEventListener('abort', stop);
  }
}

/** `promise`'s outcome, or `fallback` once `deadline` passed first. */
async function within<T>(promise: Promise<T>, deadline: AbortSignal, fallback: T): Promise<T> {
  const late = new Promise<T>((resolve) => {
    if (deadline.aborted) resolve(fallback);
    deadline.addEventListener('abort', () => resolve(fallback), { once: true });
  });
  return Promise.race([promise, late]);
}

/** The id an answer is held under: one per turn of a chat. */
const streamIdOf = (chatId: string, record: TurnRecord) => `convo:${chatId}:${record.idempotencyKey}`;

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
  if (typeof id !== 'string' || id === '') throw at('id', 'must be a non-empty string');
  if (trigger !== 'submit-message' && trigger !== 'regenerate-message')
    throw at('trigger', "must be 'submit-message' or 'regenerate-message'");
  if (messageId !== undefined && typeof messageId !== 'string') throw at('messageId', 'must be a string');
  return body as SendBody;
}

/** The UI message stream response; `delivered` runs once it was read to the turn's end. */
function respond(sse: ReadableStream<string>, delivered: () => Promise<void>): Response {
  let ended = false;
  const watch = new TransformStream<string, string>({
    transform(chunk, controller) {
      // The turn's last `finish` carries its id; a tool approval's does not (the turn goes on).
      if (chunk.includes('"type":"finish"') && chunk.includes('"turnId"')) ended = true;
      controller.enqueue(chunk);
    },
    async flush() {
      if (ended) await delivered().catch(() => {});
    },
  });
  return new Response(sse.pipeThrough(watch).pipeThrough(new TextEncoderStream()), {
    headers: UI_MESSAGE_STREAM_HEADERS,
  });
}

const failure = (status: number, name: string, message: string, field?: string) =>
  Response.json({ error: { name, message, ...(field ? { field } : {}) } }, { status });

const notFound = () => failure(404, 'NotFound', 'no such chat');

/** A thrown error as the route's answer: its class names what was wrong; an `ApiError` keeps its status. */
function errorResponse(error: unknown): Response {
  if (error instanceof ValidationError) return failure(400, error.name, error.message, error.field);
  if (error instanceof RouteCapacityError) return failure(503, error.name, error.message);
  if (error instanceof ApiError) return failure(error.status, error.name, error.message);
  if (error instanceof ConvoError) return failure(502, error.name, error.message);
  return failure(500, 'Error', 'the route failed');
}
