// Only the four APIs the recorder calls are imported, by name: a bundler then leaves out the rest of
// `@opentelemetry/api` (its logs, diag and baggage), a third of its bytes. This module is loaded on demand
// (`gate.ts`), and the API with it.
import {
  type Attributes,
  type Context,
  type Counter,
  context,
  type Histogram,
  metrics,
  propagation,
  type Span,
  type SpanKind,
  type SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { Redactor } from '../contract/redact.js';
import { ATTR, EVENT, METRIC, PROVIDER, SCOPE } from './names.js';
import type { TelemetryOptions } from './options.js';

/** The API's enum values, as numbers: the enums' objects are not needed at run time. */
const CLIENT = 2 as SpanKind.CLIENT;
const INTERNAL = 0 as SpanKind.INTERNAL;
const ERROR = 2 as SpanStatusCode.ERROR;
/** What `captureContent: true` keeps of each prompt and answer, in UTF-8 bytes. */
const DEFAULT_CONTENT_BYTES = 8_192;

/** One call of an endpoint, as its span names it. */
export interface CallInfo {
  /** The endpoint's name in the contract's table (`turns.stream`). */
  name: string;
  method: string;
  /** The path below `/api/v1/`, with its query. */
  path: string;
  /** The chat the call is about, where its path names one. */
  chatId?: string | undefined;
  /** The request body: its `model_id`, and its `content` where content is recorded. */
  body?: unknown;
}

/** The histograms and counters, made once per meter provider. */
interface Instruments {
  duration: Histogram;
  tokens: Histogram;
  firstChunk: Histogram;
  retries: Counter;
  resumes: Counter;
}

/** What a stream's events look like here (the stream layer's types sit above this one). */
interface SeenEvent {
  type: string;
  [field: string]: unknown;
}

/** The turn's usage (2.4), as the terminal event's `turn` carries it. */
interface Usage {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  model?: unknown;
}

const TURN_ENDPOINTS = new Set(['turns.send', 'turns.stream']);
/** Ends the span of a streamed turn whose stream was dropped unread to its end. */
const abandoned = new FinalizationRegistry<TurnTrace>((turn) => turn.close({ outcome: 'abandoned' }));

/**
 * Records the client's calls with `@opentelemetry/api`: one CLIENT span per call, the streamed turn's span
 * with its events, and the metrics. Loaded by `gate.ts` only once something records.
 */
export class Telemetry {
  readonly #options: TelemetryOptions | undefined;
  readonly #redact: Redactor;
  readonly #server: Attributes;
  readonly #href: string;
  /** Content kept per attribute, in bytes; `undefined` when content is not recorded. */
  readonly contentBytes: number | undefined;
  #tracer: { provider: TracerProvider; tracer: Tracer } | undefined;
  #instruments: { provider: object; instruments: Instruments } | undefined;

  constructor(options: TelemetryOptions | undefined, base: URL, redact: Redactor) {
    this.#options = options;
    this.#redact = redact;
    this.#href = base.href;
    const port = base.port ? Number(base.port) : base.protocol === 'https:' ? 443 : 80;
    this.#server = { [ATTR.serverAddress]: base.hostname, [ATTR.serverPort]: port };
    const capture = options?.captureContent;
    this.contentBytes = capture ? (capture === true ? DEFAULT_CONTENT_BYTES : capture.maxBytes) : undefined;
  }

  /** The tracer of the given provider, else of the registered one (read each time: it may be registered late). */
  tracer(): Tracer {
    const provider = this.#options?.tracerProvider ?? trace.getTracerProvider();
    if (this.#tracer?.provider !== provider) this.#tracer = { provider, tracer: provider.getTracer(SCOPE) };
    return this.#tracer.tracer;
  }

  /** The instruments of the given meter provider, else of the registered one. */
  instruments(): Instruments {
    const provider = this.#options?.meterProvider ?? metrics.getMeterProvider();
    if (this.#instruments?.provider === provider) return this.#instruments.instruments;
    const meter = provider.getMeter(SCOPE);
    const instruments: Instruments = {
      duration: meter.createHistogram(METRIC.duration, {
        unit: 's',
        description: 'Duration of a call of the service, a streamed turn until its stream ended',
      }),
      tokens: meter.createHistogram(METRIC.tokens, {
        unit: '{token}',
        description: 'Tokens a turn used, by gen_ai.token.type',
      }),
      firstChunk: meter.createHistogram(METRIC.timeToFirstChunk, {
        unit: 's',
        description: 'Time from a streamed turn being sent to its first text delta',
      }),
      retries: meter.createCounter(METRIC.retries, {
        unit: '{request}',
        description: 'Requests sent again after a failed attempt',
      }),
      resumes: meter.createCounter(METRIC.resumes, {
        unit: '{resume}',
        description: 'Broken turn streams re-opened with their key',
      }),
    };
    this.#instruments = { provider, instruments };
    return instruments;
  }

  /** Whether requests carry the span's trace context. */
  get propagates(): boolean {
    return this.#options?.propagate !== false;
  }

  /** The span of one call, started now, a child of the active span. */
  call(info: CallInfo): CallSpan {
    return new CallSpan(this, info);
  }

  /** The span of a streamed turn, started now; `owner` is the stream whose loss ends it. */
  turn(info: CallInfo, owner: object | undefined): TurnTrace {
    const turn = new TurnTrace(this, info);
    if (owner) abandoned.register(owner, turn, turn);
    return turn;
  }

  /** Runs `fn` inside an INTERNAL span (the handler loop), active for what `fn` calls. */
  async within<T>(info: { name: string; chatId: string }, fn: () => Promise<T>): Promise<T> {
    const attributes = {
      ...this.common({ ...info, method: '', path: '' }),
      [ATTR.conversation]: info.chatId,
    };
    const span = this.tracer().startSpan(info.name, { kind: INTERNAL, attributes });
    try {
      return await context.with(trace.setSpan(context.active(), span), fn);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  /** The attributes every span and metric of a call has: what and where, never an id. */
  common(info: CallInfo): Attributes {
    const model = (info.body as { model_id?: unknown } | undefined)?.model_id;
    return {
      [ATTR.operation]: TURN_ENDPOINTS.has(info.name) ? 'chat' : info.name,
      [ATTR.provider]: PROVIDER,
      [ATTR.endpoint]: info.name,
      ...this.#server,
      ...(model !== undefined && { [ATTR.requestModel]: String(model) }),
    };
  }

  /** The call's URL, the token masked wherever a path or query could hold it. */
  url(info: CallInfo): string {
    return this.#redact(this.#href + info.path);
  }

  /** `text` within the content bound, marked with `…` when cut. */
  bounded(text: string): { text: string; cut: boolean } {
    const max = this.contentBytes ?? 0;
    const bytes = new TextEncoder().encode(text);
    if (bytes.length <= max) return { text, cut: false };
    // Cut on a character boundary: a partial UTF-8 sequence at the end is dropped, not replaced.
    const kept = new TextDecoder('utf-8', { fatal: false })
      .decode(bytes.subarray(0, max))
      .replace(/\uFFFD$/, '');
    return { text: `${kept}…`, cut: true };
  }
}

/** The span of one call of an endpoint, over all its attempts. */
export class CallSpan {
  readonly span: Span;
  readonly #telemetry: Telemetry;
  readonly #metric: Attributes;
  /** When the span started: read after `startSpan`, so a time measured from it fits within the span. */
  readonly #started: number;
  readonly context: Context;
  #ended = false;

  constructor(telemetry: Telemetry, info: CallInfo) {
    this.#telemetry = telemetry;
    this.#metric = telemetry.common(info);
    const attributes: Attributes = {
      ...this.#metric,
      [ATTR.method]: info.method,
      [ATTR.url]: telemetry.url(info),
    };
    if (info.chatId !== undefined) attributes[ATTR.conversation] = info.chatId;
    const prompt = (info.body as { content?: unknown } | undefined)?.content;
    if (telemetry.contentBytes !== undefined && typeof prompt === 'string') {
      const { text, cut } = telemetry.bounded(prompt);
      attributes[ATTR.inputMessages] = messages('user', text);
      if (cut) attributes[ATTR.truncated] = true;
    }
    const parent = context.active();
    this.span = telemetry.tracer().startSpan(info.name, { kind: CLIENT, attributes }, parent);
    this.#started = performance.now();
    this.context = trace.setSpan(parent, this.span);
  }

  /**
   * `headers` with the span's trace context (`traceparent`, and what the registered propagator adds), for a
   * request to the client's `baseUrl`; `headers` itself when propagation is off.
   */
  headers(headers: Readonly<Record<string, string>> | undefined): Record<string, string> | undefined {
    if (!this.#telemetry.propagates) return headers;
    const carrier: Record<string, string> = {};
    propagation.inject(this.context, carrier);
    // No propagator registered (a provider given as an option only): the W3C header, written here.
    if (!carrier.traceparent) {
      const { traceId, spanId, traceFlags, traceState } = this.span.spanContext();
      if (trace.isSpanContextValid(this.span.spanContext())) {
        carrier.traceparent = `00-${traceId}-${spanId}-0${traceFlags & 1}`;
        const state = traceState?.serialize();
        if (state) carrier.tracestate = state;
      }
    }
    return { ...headers, ...carrier };
  }

  /** Attempt `n` (from 1) is sent: from the second on it is a resend. */
  attempt(n: number): void {
    if (n < 2) return;
    this.span.setAttribute(ATTR.resendCount, n - 1);
    this.#telemetry.instruments().retries.add(1, this.#metric);
  }

  /** An answer's HTTP status. */
  status(code: number): void {
    this.span.setAttribute(ATTR.status, code);
  }

  /**
   * Ends the span: failed with `error`, or done, with the turn `data` held (its usage and, where content is
   * recorded, its answer, which ended for `reason`).
   */
  end(error?: unknown, data?: unknown, reason = 'stop'): void {
    if (this.#ended) return;
    this.#ended = true;
    const metric = { ...this.#metric };
    if (error !== undefined) {
      const type = failed(this.span, error);
      metric[ATTR.errorType] = type;
    } else {
      this.#finish(data, metric, reason);
    }
    this.#telemetry.instruments().duration.record((performance.now() - this.#started) / 1000, metric);
    this.span.end();
  }

  /** What a successful end records beyond the status: a turn's usage and answer. */
  #finish(data: unknown, metric: Attributes, reason: string): void {
    const turn = data as { usage?: Usage | null; content?: unknown } | undefined;
    if (turn?.usage) this.#usage(turn.usage, metric);
    if (typeof turn?.content === 'string') this.#output(turn.content, reason);
  }

  #usage(usage: Usage, metric: Attributes): void {
    const { tokens } = this.#telemetry.instruments();
    if (typeof usage.model === 'string') {
      this.span.setAttribute(ATTR.responseModel, usage.model);
      metric[ATTR.responseModel] = usage.model;
    }
    if (typeof usage.prompt_tokens === 'number') {
      this.span.setAttribute(ATTR.inputTokens, usage.prompt_tokens);
      tokens.record(usage.prompt_tokens, { ...metric, [ATTR.tokenType]: 'input' });
    }
    if (typeof usage.completion_tokens === 'number') {
      this.span.setAttribute(ATTR.outputTokens, usage.completion_tokens);
      tokens.record(usage.completion_tokens, { ...metric, [ATTR.tokenType]: 'output' });
    }
  }

  #output(content: string, reason: string): void {
    if (this.#telemetry.contentBytes === undefined) return;
    const { text, cut } = this.#telemetry.bounded(content);
    this.span.setAttribute(ATTR.outputMessages, messages('assistant', text, reason));
    if (cut) this.span.setAttribute(ATTR.truncated, true);
  }

  protected get telemetry(): Telemetry {
    return this.#telemetry;
  }

  protected get metric(): Attributes {
    return this.#metric;
  }

  protected get started(): number {
    return this.#started;
  }
}

/**
 * The span of a streamed turn: from its first read until its stream was read to its end, failed, was left
 * (`return()`), or was dropped unread (a `FinalizationRegistry`); with the time to its first delta, each
 * resume, each interaction raised and answered, and its terminal event.
 */
export class TurnTrace extends CallSpan {
  #resumes = 0;
  #firstChunk = false;
  #outcome: string | undefined;
  #terminal: SeenEvent | undefined;

  /** Observes each batch of events `source` yields, passing it on; ends the span when the reading ends. */
  async *observe<E extends { type: string }>(
    source: AsyncIterator<E[]>,
  ): AsyncGenerator<E[], void, undefined> {
    let error: unknown;
    try {
      for (;;) {
        const next = await source.next();
        if (next.done) return;
        for (const event of next.value) this.#see(event as unknown as SeenEvent);
        yield next.value;
      }
    } catch (thrown) {
      error = thrown;
      throw thrown;
    } finally {
      // A reader that left (`return()`) closes the stream below too; one that ended has nothing left there.
      this.close(error === undefined ? { outcome: this.#outcome ?? 'stopped' } : { error });
      if (error === undefined) await source.return?.();
    }
  }

  /** Sends an interaction's answer inside this span (its CLIENT span is a child) and records it. */
  async answer<T>(
    kind: string,
    body: unknown,
    until: number,
    lifetimeMs: number,
    send: () => Promise<T>,
  ): Promise<T> {
    const waited = Math.max(0, Date.now() - (until - lifetimeMs));
    const attributes: Attributes = {
      [ATTR.interactionKind]: kind,
      [ATTR.answer]: answerOf(kind, body),
      [ATTR.waitMs]: waited,
    };
    const action = (body as { action_id?: unknown } | undefined)?.action_id;
    if (typeof action === 'string') attributes[ATTR.actionId] = action;
    this.span.addEvent(EVENT.answered, attributes);
    return context.with(this.context, send);
  }

  /** Ends the span once, however reading ended: `outcome` says how, `error` what failed. */
  close(how: { outcome: string } | { error: unknown }): void {
    abandoned.unregister(this);
    this.span.setAttribute(ATTR.outcome, 'outcome' in how ? how.outcome : 'failed');
    this.span.setAttribute(ATTR.resumes, this.#resumes);
    const terminal = this.#terminal;
    const code = (terminal?.error as { code?: unknown } | undefined)?.code;
    if ('error' in how) this.end(how.error);
    else if (terminal?.type === 'error') this.end(new TurnFailed(typeof code === 'string' ? code : 'error'));
    else this.end(undefined, terminal?.turn, terminal?.type === 'cancelled' ? 'cancelled' : 'stop');
  }

  #see(event: SeenEvent): void {
    switch (event.type) {
      case 'start':
        this.span.setAttribute(ATTR.responseId, String(event.message_id));
        break;
      case 'delta':
        if (this.#firstChunk) break;
        this.#firstChunk = true;
        {
          const seconds = (performance.now() - this.started) / 1000;
          this.span.setAttribute(ATTR.timeToFirstChunk, seconds);
          this.telemetry.instruments().firstChunk.record(seconds, this.metric);
        }
        break;
      case 'resumed':
        this.#resumes++;
        this.span.addEvent(EVENT.resumed, {
          [ATTR.resumeAttempt]: Number(event.attempt),
          [ATTR.resumeReason]: String(event.reason),
        });
        this.telemetry.instruments().resumes.add(1, this.metric);
        break;
      case 'action_required': {
        const interaction = event.interaction as { kind?: unknown; action_id?: unknown };
        this.span.addEvent(EVENT.raised, {
          [ATTR.interactionKind]: String(interaction.kind),
          [ATTR.actionId]: String(interaction.action_id),
        });
        break;
      }
      case 'completed':
      case 'cancelled':
      case 'error':
        this.#terminal = event;
        this.#outcome = event.type;
        this.span.setAttribute(ATTR.finishReasons, [event.type === 'completed' ? 'stop' : event.type]);
        break;
    }
  }
}

/** A `message.error` end, as the span's error: its code is the error type. */
class TurnFailed extends Error {
  readonly code: string;
  constructor(code: string) {
    super(code);
    this.code = code;
  }
}

/**
 * Marks `span` failed with `error`: status ERROR, and `error.type` the error's code where it has one (an
 * `ApiError`'s, a turn's `message.error`), else its class name. Its message is not recorded: a service's
 * text may quote what it was sent.
 */
function failed(span: Span, error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const status = (error as { status?: unknown } | undefined)?.status;
  const type =
    typeof code === 'string' && code ? code : error instanceof Error ? error.name || 'Error' : '_OTHER';
  if (typeof status === 'number' && status > 0) span.setAttribute(ATTR.status, status);
  span.setAttribute(ATTR.errorType, type);
  span.setStatus({ code: ERROR, message: type });
  return type;
}

/** How an interaction was answered, from its answer's body. */
function answerOf(kind: string, body: unknown): string {
  const answer = body as { action?: unknown; decisions?: Array<{ approved?: unknown }> } | undefined;
  if (typeof answer?.action === 'string') return answer.action;
  if (kind === 'auth_required') return 'cancel';
  const decisions = answer?.decisions ?? [];
  const approved = decisions.filter((decision) => decision.approved === true).length;
  if (approved === decisions.length && approved > 0) return 'approve';
  return approved === 0 ? 'reject' : 'partial';
}

/** The conventions' `gen_ai.*.messages` form of one text message. */
function messages(role: string, text: string, finish?: string): string {
  const message = {
    role,
    parts: [{ type: 'text', content: text }],
    ...(finish && { finish_reason: finish }),
  };
  return JSON.stringify([message]);
}
