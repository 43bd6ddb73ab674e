import { createParser } from 'eventsource-parser';
import * as z from 'zod/mini';
import { Uuid } from '../contract/checks.js';
import { EnvelopeSchema } from '../contract/envelope.js';
import { redactJson } from '../contract/redact.js';
import { type Sanitizer, serverTextOf } from './sanitize.js';
import { Failure, Skip, show } from './verdict.js';

/** An answer as it came: the call, the status, the parsed JSON body (or undefined), its request id. */
export interface Answer {
  /** The request's method and path: `GET /api/v1/chats`. */
  call: string;
  /** HTTP status. */
  status: number;
  /** The parsed body, or undefined when it was not JSON. */
  body: unknown;
  /** `meta.request_id`, when the body had one. */
  requestId: string | undefined;
  /** `message_code`, when the body had one. */
  code: string | undefined;
  /** `data`, when the body had it. */
  data: unknown;
}

/** One server-sent event as it came, its data parsed when it was JSON. */
export interface WireEvent {
  /** The `event:` name (`message` when absent). */
  event: string;
  /** The parsed `data:`, or the raw text when it was not JSON. */
  data: unknown;
}

/** A streaming answer: the status and content type, then the events (when it was a stream) or the body. */
export interface StreamAnswer extends Answer {
  /** The response's content type. */
  contentType: string;
  /** The events read, in order (empty when the answer was not a stream). */
  events: WireEvent[];
}

/** A successful answer that broke the envelope of 2.1 (or a list's `meta` of 4). */
export interface EnvelopeProblem {
  /** Which call: `GET /api/v1/skills`. */
  call: string;
  /** Its status. */
  status: number;
  /** What was wrong. */
  problem: string;
  /** The request id, when one came. */
  requestId: string | undefined;
}

/** The last answer the run read, kept to show what came when a check could not read it. */
export interface LastAnswer {
  /** Which call: `GET /api/v1/skills`. */
  call: string;
  /** HTTP status. */
  status: number;
  /** The content type and the start of the body (`text/plain: ok`). */
  summary: string;
  /** The request id, when one came. */
  requestId: string | undefined;
}

/** How a `Wire` is bounded. */
export interface WireOptions {
  /** The service's base URL (without `/api/v1`). */
  url: string;
  /** Aborts every request (the run's deadline and the caller's signal). */
  signal: AbortSignal;
  /** The most requests the run may send. */
  maxRequests: number;
  /** How long one request (a whole stream included) may take. */
  requestTimeoutMs: number;
  /** The fetch to use. */
  fetch: typeof fetch;
  /** The run's credentials: masked in everything the service sends, as it arrives (`serverTextOf`). */
  secrets?: Iterable<string | undefined> | undefined;
}

/** The most bytes read of one answer, and the most events of one stream. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
export const MAX_EVENTS = 20_000;

/**
 * What a path may hold: `/api/v1/` then segments of URL-safe characters, none of them `.` or `..` (which
 * `new URL` would resolve: a chat id `../skills/1` must not turn a chat's DELETE into a skill's).
 */
const SAFE_PATH = /^\/api\/v1(\/(?!\.{1,2}(?:[/?]|$))[A-Za-z0-9._~-]+)+(\?[A-Za-z0-9._~=&-]*)?$/;

const ListMetaSchema = z.looseObject({ page: z.int(), size: z.int(), total: z.int() });

/**
 * The run's only way to the service: counts and bounds requests, times each one out, reads bodies up to
 * a bound, and checks the envelope of every successful answer on the way (section 2.1), collecting what
 * it finds for the 2.1 checks.
 */
export class Wire {
  /** Requests sent so far. */
  requests = 0;
  /** Successful answers that broke the envelope. */
  readonly envelopeProblems: EnvelopeProblem[] = [];
  /** List answers whose `meta` lacked `page`, `size` or `total`. */
  readonly listProblems: EnvelopeProblem[] = [];
  /** Answers that are not lists (their `data` no array) whose `meta` held `page`, `size` or `total`. */
  readonly nonListProblems: EnvelopeProblem[] = [];
  /** Successful answers checked. */
  successes = 0;
  /** List answers checked. */
  lists = 0;
  /** The last answer read, when one was. */
  last: LastAnswer | undefined;
  /**
   * Every call made (`GET /api/v1/chats`, query left out), status seen and `message_code` seen, and each
   * refusal with its call, status and code (`POST /api/v1/skills 422 prompt_text_too_long`).
   */
  readonly seen = {
    calls: new Set<string>(),
    statuses: new Set<number>(),
    codes: new Set<string>(),
    refusals: new Set<string>(),
  };

  #maxRequests: number;
  #signal: AbortSignal;
  /** What the server's text becomes before any check reads it: no credential, however it was echoed. */
  #clean: Sanitizer;

  constructor(private readonly options: WireOptions) {
    this.#maxRequests = options.maxRequests;
    this.#signal = options.signal;
    this.#clean = serverTextOf(options.secrets ?? []);
  }

  /** The server's `text`, or JSON value, with every credential masked. */
  #cleaned<T>(value: T): T {
    return (typeof value === 'string' ? this.#clean(value) : redactJson(value, this.#clean)) as T;
  }

  /**
   * Allows `count` more requests beyond the bound, under `signal` instead of the run's: the cleanup's, so
   * that a run stopped or out of requests still deletes what it created.
   */
  allow(count: number, signal: AbortSignal): void {
    this.#maxRequests = Math.max(this.#maxRequests, this.requests) + count;
    this.#signal = signal;
  }

  /** Sends one JSON request; `token` undefined sends no `Authorization` header. */
  async call(
    method: string,
    path: string,
    init: { token: string | undefined; body?: unknown; key?: string; list?: boolean },
  ): Promise<Answer> {
    const response = await this.send(method, path, init, 'application/json');
    const text = this.#cleaned(await response.text);
    const answer = toAnswer(`${method} ${path}`, response.status, this.#cleaned(parseJson(text)));
    if (answer.code !== undefined) this.seen.codes.add(answer.code);
    this.remember(`${method} ${path}`, response.contentType, text, answer);
    this.inspect(`${method} ${path}`, answer, init.list === true);
    return answer;
  }

  /**
   * Sends a streaming turn and reads its events to the end of the body, handing each to `onEvent` as it
   * arrives (to act while the turn runs: cancel it, send another).
   */
  async stream(
    path: string,
    init: { token: string; body: unknown; key: string },
    onEvent?: (event: WireEvent) => void,
  ): Promise<StreamAnswer> {
    const events: WireEvent[] = [];
    let overflow = false;
    const parser = createParser({
      onEvent: (event) => {
        if (events.length >= MAX_EVENTS) overflow = true;
        else {
          const read = this.#cleaned({
            event: event.event ?? 'message',
            data: parseJson(event.data) ?? event.data,
          });
          events.push(read);
          onEvent?.(read);
        }
      },
    });
    const isStream = (contentType: string) => contentType.startsWith('text/event-stream');
    const response = await this.send('POST', path, init, 'text/event-stream', (contentType) =>
      isStream(contentType) ? (chunk) => parser.feed(chunk) : undefined,
    );
    const streaming = isStream(response.contentType);
    if (!streaming) {
      const text = this.#cleaned(await response.text);
      const answer = toAnswer(`POST ${path}`, response.status, this.#cleaned(parseJson(text)));
      if (answer.code !== undefined) this.seen.codes.add(answer.code);
      this.remember(`POST ${path}`, response.contentType, text, answer);
      this.inspect(`POST ${path}`, answer, false);
      return { ...answer, contentType: response.contentType, events };
    }
    await response.text;
    if (overflow) {
      throw new Failure(`a stream the kit can read (at most ${MAX_EVENTS} events)`, 'more events', {
        call: `POST ${path}`,
        status: response.status,
        requestId: undefined,
      });
    }
    const start = events.find((event) => event.event === 'message.start')?.data;
    const startId = (start as { request_id?: unknown } | undefined)?.request_id;
    const requestId = typeof startId === 'string' ? startId : undefined;
    this.last = {
      call: `POST ${path}`,
      status: response.status,
      summary: `${response.contentType}: ${events.length} events`,
      requestId,
    };
    return {
      call: `POST ${path}`,
      status: response.status,
      body: undefined,
      requestId,
      code: undefined,
      data: undefined,
      contentType: response.contentType,
      events,
    };
  }

  private async send(
    method: string,
    path: string,
    init: { token: string | undefined; body?: unknown; key?: string },
    accept: string,
    reader?: (contentType: string) => ((chunk: string) => void) | undefined,
  ): Promise<{ status: number; contentType: string; text: Promise<string> }> {
    if (this.requests >= this.#maxRequests) {
      throw new Skip(`the run's bound of ${this.options.maxRequests} requests was reached`);
    }
    if (this.#signal.aborted) throw new Skip('the run was stopped or ran out of time');
    if (!SAFE_PATH.test(path)) {
      throw new Failure('ids that fit in a path (4.1: an integer; 4.2: a uuid)', `the path ${show(path)}`);
    }
    this.requests++;
    this.seen.calls.add(`${method} ${path.replace(/\?.*/, '')}`);
    const headers: Record<string, string> = { accept };
    if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
    if (init.key !== undefined) headers['idempotency-key'] = init.key;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const signal = AbortSignal.any([this.#signal, AbortSignal.timeout(this.options.requestTimeoutMs)]);
    const url = new URL(path.replace(/^\//, ''), `${this.options.url.replace(/\/?$/, '/')}`);
    let response: Response;
    try {
      response = await this.options.fetch(url, {
        method,
        headers,
        body: init.body === undefined ? null : JSON.stringify(init.body),
        signal,
        redirect: 'manual',
      });
    } catch (error) {
      throw this.unreadable(
        `${method} ${path}`,
        undefined,
        `no answer: ${this.#clean(describe(error, signal))}`,
      );
    }
    this.seen.statuses.add(response.status);
    const contentType = this.#clean(response.headers.get('content-type') ?? '');
    return {
      status: response.status,
      contentType,
      text: readBounded(response, signal, reader?.(contentType)).catch((error: unknown) => {
        throw this.unreadable(
          `${method} ${path}`,
          response.status,
          `a body that could not be read: ${this.#clean(describe(error, signal))}`,
        );
      }),
    };
  }

  /**
   * What an answer the run could not read becomes: a failure of the service (no answer in time, a body
   * over the bound), unless the run itself was stopped, which is no verdict on the service.
   */
  private unreadable(call: string, status: number | undefined, got: string): Error {
    if (this.#signal.aborted) return new Skip('the run was stopped or ran out of time');
    return new Failure(
      `an answer within ${this.options.requestTimeoutMs} ms and ${MAX_BODY_BYTES} bytes`,
      got,
      { call, status, requestId: undefined },
    );
  }

  private remember(call: string, contentType: string, text: string, answer: Answer): void {
    const start = text.length > 200 ? `${text.slice(0, 200)}...` : text;
    const summary = `${contentType || 'no content type'}: ${start || 'no body'}`;
    this.last = { call, status: answer.status, summary, requestId: answer.requestId };
  }

  private inspect(call: string, answer: Answer, list: boolean): void {
    if (answer.status < 200 || answer.status > 299) {
      if (answer.code !== undefined)
        this.seen.refusals.add(`${call.replace(/\?.*/, '')} ${answer.status} ${answer.code}`);
      return;
    }
    this.successes++;
    const envelope = EnvelopeSchema.safeParse(answer.body);
    const problem = !envelope.success
      ? `the body is not the envelope: ${envelope.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`
      : envelope.data.message_code !== 'api_v1_ok'
        ? `message_code is ${JSON.stringify(envelope.data.message_code)}, not "api_v1_ok"`
        : !Uuid.safeParse(envelope.data.meta.request_id).success
          ? `meta.request_id ${JSON.stringify(envelope.data.meta.request_id)} is not a UUID`
          : undefined;
    if (problem)
      this.envelopeProblems.push({ call, status: answer.status, problem, requestId: answer.requestId });
    const meta = (answer.body as { meta?: unknown } | undefined)?.meta;
    if (!Array.isArray(answer.data) && typeof meta === 'object' && meta !== null) {
      const paging = ['page', 'size', 'total'].filter((field) => field in meta);
      if (paging.length > 0) {
        this.nonListProblems.push({
          call,
          status: answer.status,
          problem: `meta holds ${paging.join(', ')} on an answer that is not a list`,
          requestId: answer.requestId,
        });
      }
    }
    if (!list) return;
    this.lists++;
    const listMeta = ListMetaSchema.safeParse(meta);
    if (!listMeta.success) {
      const missing = ['page', 'size', 'total'].filter(
        (field) => !Number.isInteger((meta as Record<string, unknown> | undefined)?.[field]),
      );
      this.listProblems.push({
        call,
        status: answer.status,
        problem: `meta lacks an integer ${missing.join(', ')}`,
        requestId: answer.requestId,
      });
    }
  }
}

function toAnswer(call: string, status: number, body: unknown): Answer {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const meta = record.meta as Record<string, unknown> | undefined;
  const requestId = typeof meta?.request_id === 'string' ? meta.request_id : undefined;
  const code = typeof record.message_code === 'string' ? record.message_code : undefined;
  return { call, status, body, requestId, code, data: record.data };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The body as text, up to `MAX_BODY_BYTES`, each chunk also handed to `onText`; the signal aborts the read too. */
async function readBounded(
  response: Response,
  signal: AbortSignal,
  onText?: (chunk: string) => void,
): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const onAbort = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > MAX_BODY_BYTES) {
        await reader.cancel();
        throw new Error(`the answer is larger than ${MAX_BODY_BYTES} bytes`);
      }
      const chunk = decoder.decode(value, { stream: true });
      text += chunk;
      onText?.(chunk);
    }
    if (signal.aborted) throw signal.reason;
    const rest = decoder.decode();
    onText?.(rest);
    return text + rest;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function describe(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timed out or aborted';
  return error instanceof Error ? error.message : String(error);
}
