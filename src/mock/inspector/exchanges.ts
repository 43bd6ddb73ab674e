import { isEventStream } from '../http/sse.js';
import type { CredentialNames } from './credential-names.js';
import { displayPath, type TokenMask } from './masking.js';
import { observedBody, type StreamEvent, type StreamTimeline, TimelineBuilder } from './timeline.js';
import { traceIdOf } from './trace-context.js';

/** A body as the inspector keeps it: its start as text, tokens masked, at most `BODY_CAP` characters, and its full size. */
export interface CapturedBody {
  /** The text kept (tokens masked before the cut, which never ends in a token's start). */
  text: string;
  /**
   * The body's size in bytes, counted as the mock read it, to the end even past the cap; a request body
   * refused before it was read to its end counts its declared `Content-Length` (and is `truncated`).
   */
  bytes: number;
  /** Whether `text` is only the start of the body. */
  truncated: boolean;
}

/** One exchange as the requests table lists it. */
export interface ExchangeSummary {
  /** Sequence number, from 1. */
  id: number;
  /** When it arrived, ISO 8601 UTC. */
  at: string;
  /** Method. */
  method: string;
  /** Path and query (tokens masked). */
  path: string;
  /** Status answered; 0 for a dropped connection. */
  status: number;
  /** The `message_code` of an error body, or of a stream's `message.error`. */
  code: string | undefined;
  /** Which credential sent it, by name (never its token). */
  credential: string;
  /** The credential's id; undefined without a known one. */
  credentialId: number | undefined;
  /** The chat of a `/chats/{id}/...` path or of a stream's `message.start`. */
  chatId: string | undefined;
  /** The trace id of the request's W3C `traceparent`: the client's span of this exchange is in that trace. */
  traceId: string | undefined;
  /** Milliseconds to the response headers, or to the end of an event stream once it ended. */
  ms: number;
  /** Whether an event stream is still being written. */
  open: boolean;
  /** Whether the response is an event stream. */
  stream: boolean;
  /** `inspector` for what the inspector's page sent, `client` otherwise. */
  from: 'client' | 'inspector';
  /** The fault armed from the page that this exchange fired, described. */
  fault: string | undefined;
}

/** One exchange in full: what the row opens to. */
export interface Exchange extends ExchangeSummary {
  /** The full URL (tokens masked). */
  url: string;
  /** The request's headers (the token masked) and body. */
  request: { headers: Array<[string, string]>; body: CapturedBody };
  /** The response's headers and body; for a stream, its events with their times instead of a body. */
  response: {
    headers: Array<[string, string]>;
    body: CapturedBody;
    events: StreamEvent[] | undefined;
    /** Events forgotten past the per-stream cap. */
    eventsDropped: number;
  };
  /** The folded timeline of a stream; undefined for any other response. */
  timeline: StreamTimeline | undefined;
}

/** Which exchanges a list or an export holds; every field narrows, absent ones do not. */
export interface ExchangeFilter {
  /** A substring of the path. */
  path?: string;
  /** `404`, `4xx`, or `0` for a dropped connection. */
  status?: string;
  /** A credential id. */
  credential?: number;
  /** A substring of the chat id. */
  chat?: string;
}

/** Exchanges kept; older ones are forgotten. */
export const MAX_EXCHANGES = 200;
/** Characters of each request and response body kept. */
export const BODY_CAP = 16 * 1024;
const HIDDEN_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);
const CHAT_PATH = /^\/api\/v1\/chats\/([^/?]+)/;

/** The exchanges the mock answered, newest last, bounded by `MAX_EXCHANGES` and `BODY_CAP`. */
export class ExchangeLog {
  #exchanges: Exchange[] = [];
  #sequence = 0;
  #revision = 0;
  readonly #names: CredentialNames;
  readonly #mask: TokenMask;
  readonly #builders = new WeakMap<Exchange, TimelineBuilder>();

  constructor(names: CredentialNames, mask: TokenMask) {
    this.#names = names;
    this.#mask = mask;
  }

  /** Goes up whenever an exchange is added, changes in the list (a stream ended) or all are forgotten. */
  get revision(): number {
    return this.#revision;
  }

  /**
   * Runs `request` through `handle` and records the exchange; returns the response to send (an event
   * stream observed on its way). `fired` says, once the response is known, which page fault the request
   * handed to `handle` fired.
   */
  async run(
    request: Request,
    handle: (request: Request) => Promise<Response>,
    from: ExchangeSummary['from'],
    fired: (request: Request, exchangeId: number) => string | undefined = () => undefined,
  ): Promise<Response> {
    const startedMs = performance.now();
    const at = new Date().toISOString();
    // The body passes through a tap on its way to the mock: counted as read, never copied whole.
    const tap = new BodyTap(Number(request.headers.get('content-length')) || 0, this.#mask);
    const handled = request.body
      ? new Request(request.url, {
          method: request.method,
          headers: request.headers,
          signal: request.signal,
          body: tap.through(request.body),
          duplex: 'half',
        } as RequestInit)
      : request;
    const response = await handle(handled);
    const url = this.#mask.url(new URL(request.url));
    const token = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]?.trim();
    const credential = token === undefined ? undefined : this.#names.byToken(token);
    const stream = isEventStream(response);
    const id = ++this.#sequence;
    const exchange: Exchange = {
      id,
      at,
      method: request.method,
      path: displayPath(url),
      url: url.href,
      status: response.type === 'error' ? 0 : response.status,
      code: undefined,
      credential:
        token === undefined
          ? 'no credential'
          : credential
            ? this.#names.name(credential.id)
            : 'unknown credential',
      credentialId: credential?.id,
      chatId: CHAT_PATH.exec(displayPath(url))?.[1],
      traceId: traceIdOf(request.headers.get('traceparent')),
      ms: Math.round(performance.now() - startedMs),
      open: stream,
      stream,
      from,
      fault: fired(handled, id),
      request: { headers: this.#headers(request.headers), body: tap.captured() },
      response: {
        headers: this.#headers(response.headers),
        body: EMPTY,
        events: undefined,
        eventsDropped: 0,
      },
      timeline: undefined,
    };
    this.#exchanges.push(exchange);
    this.#revision += 1;
    if (this.#exchanges.length > MAX_EXCHANGES) this.#exchanges.shift();
    tap.onEnd = () => {
      exchange.request.body = tap.captured();
    };
    if (response.type === 'error' || !response.body) return response;
    if (!stream) {
      const bytes = new Uint8Array(await response.arrayBuffer());
      exchange.response.body = captured(
        bytes.subarray(0, BODY_CAP + this.#mask.margin),
        bytes.length,
        this.#mask,
      );
      exchange.code = messageCode(exchange.response.body);
      return new Response(bytes, { status: response.status, headers: response.headers });
    }
    const builder = new TimelineBuilder(() => Math.round(performance.now() - startedMs), this.#mask);
    this.#builders.set(exchange, builder);
    exchange.timeline = builder.timeline;
    exchange.response.events = builder.events;
    const body = observedBody(response.body, builder, () => {
      exchange.open = false;
      exchange.ms = Math.round(performance.now() - startedMs);
      exchange.response.eventsDropped = builder.dropped;
      exchange.code = builder.timeline.errorCode;
      exchange.chatId ??= builder.timeline.chatId;
      this.#revision += 1;
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }

  /** The exchanges that pass `filter`, newest first. */
  list(filter: ExchangeFilter = {}): Exchange[] {
    return this.#exchanges.filter((exchange) => matches(exchange, filter)).reverse();
  }

  /** The exchange with that id, while it is kept. */
  get(id: number): Exchange | undefined {
    return this.#exchanges.find((exchange) => exchange.id === id);
  }

  /** The streams that carried turn `turnId`, oldest first. */
  streamsOf(turnId: number): StreamTimeline[] {
    return this.#exchanges.flatMap((e) => (e.timeline?.turnId === turnId ? [e.timeline] : []));
  }

  /** What changes whenever a stream of turn `turnId` gets an event or ends: a poll compares it. */
  streamsMark(turnId: number): string {
    return this.#exchanges
      .flatMap((e) => (e.timeline?.turnId === turnId ? [`${e.id}:${this.#builders.get(e)?.seen}`] : []))
      .join(',');
  }

  /** Forgets every exchange. */
  clear(): void {
    this.#exchanges = [];
    this.#revision += 1;
  }

  /** The headers as pairs: credentials and cookies hidden (an auth scheme kept), tokens masked elsewhere. */
  #headers(headers: Headers): Array<[string, string]> {
    return [...headers].map(([name, value]) => [
      name,
      HIDDEN_HEADERS.has(name)
        ? value.replace(/^([A-Za-z][\w-]*\s+)?.*$/s, (_all, scheme = '') => `${scheme}[hidden]`)
        : this.#mask.value(value),
    ]);
  }
}

/** A summary of `exchange`: what the table lists. */
export function summaryOf(exchange: Exchange): ExchangeSummary {
  const { url: _url, request: _request, response: _response, timeline: _timeline, ...summary } = exchange;
  return summary;
}

const EMPTY: CapturedBody = { text: '', bytes: 0, truncated: false };

function matches(exchange: Exchange, filter: ExchangeFilter): boolean {
  if (filter.path !== undefined && !exchange.path.includes(filter.path)) return false;
  if (filter.credential !== undefined && exchange.credentialId !== filter.credential) return false;
  if (filter.chat !== undefined && !exchange.chatId?.includes(filter.chat)) return false;
  if (filter.status !== undefined) {
    const status = String(exchange.status);
    if (filter.status.endsWith('xx') ? status[0] !== filter.status[0] : status !== filter.status)
      return false;
  }
  return true;
}

/**
 * The body whose first bytes are `kept` (`BODY_CAP` characters and a token's length more, so a token the
 * cut splits is seen whole) and whose size is `size`: masked, then cut.
 */
function captured(
  kept: Uint8Array,
  size: number,
  mask: TokenMask,
  whole = size <= kept.length,
): CapturedBody {
  const cut = mask.cut(mask.body(new TextDecoder().decode(kept), whole), BODY_CAP, whole);
  return { text: cut.text, bytes: size, truncated: cut.truncated };
}

/**
 * A pass-through on a request body: keeps its first `BODY_CAP` bytes and the mask's margin (a token the cap
 * splits, seen whole) and counts what the mock read. A body
 * the mock refused without reading it to the end (a 401, a 413 on its `Content-Length`) is counted at its
 * declared `Content-Length` when that is more, and marked truncated.
 */
class BodyTap {
  /** Called when the body was read to its end, or the mock stopped reading it. */
  onEnd: () => void = () => {};
  readonly #kept: Uint8Array;
  #length = 0;
  #size = 0;
  #ended = false;

  constructor(
    readonly declared: number,
    readonly mask: TokenMask,
  ) {
    this.#kept = new Uint8Array(BODY_CAP + mask.margin);
  }

  /** `body` as the mock reads it, counted on the way. */
  through(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const { done, value } = await reader.read();
        if (done) {
          this.#ended = true;
          controller.close();
          this.onEnd();
          return;
        }
        this.#kept.set(value.subarray(0, this.#kept.length - this.#length), this.#length);
        this.#length = Math.min(this.#kept.length, this.#length + value.length);
        this.#size += value.length;
        controller.enqueue(value);
      },
      cancel: async (reason) => {
        await reader.cancel(reason).catch(() => {});
        this.onEnd();
      },
    });
  }

  /** The body as kept so far. */
  captured(): CapturedBody {
    const read = this.#ended || this.declared <= this.#size;
    const kept = this.#kept.subarray(0, this.#length);
    const body = captured(kept, this.#size, this.mask, read && this.#size <= kept.length);
    if (read) return body;
    return { ...body, bytes: this.declared, truncated: true };
  }
}

function messageCode(body: CapturedBody): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body.text);
    const code =
      typeof parsed === 'object' && parsed !== null
        ? (parsed as Record<string, unknown>).message_code
        : undefined;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return /"message_code"\s*:\s*"([^"]{1,100})"/.exec(body.text)?.[1];
  }
}
