import {
  AbortError,
  ConnectionError,
  ConvoError,
  ResponseValidationError,
  StreamBreak,
  StreamInterruptedError,
} from '../errors/index.js';
import type { RetrySettings } from '../http/policy-run.js';
import type { Logger, RequestOptions, Transport } from '../http/transport.js';
import type { StreamEvent } from '../stream/events.js';
import type { StreamState } from '../stream/map.js';
import { readEvents } from '../stream/sse.js';
import type { TurnTrace } from '../telemetry/otel.js';
import type { TurnCall } from './call.js';

/** Everything needed to open, and re-open, one streamed turn. */
interface StreamRequest {
  transport: Transport;
  /** Path of the streaming send. */
  path: string;
  body: object;
  /** The turn's key and location. */
  call: TurnCall;
  /** No event (not even a ping) for this long means the connection is dead. */
  idleMs: number;
  /** Largest body one connection may deliver, in bytes (each re-open is counted from zero: it replays). */
  maxBytes: number;
  /** How many times a broken stream is re-opened before giving up. */
  maxResumes: number;
  /** How long a re-opened stream may wait for the running turn (409 in progress) before giving up. */
  settleMs: number;
  /** The call's retry settings, read once for every open. */
  settings: RetrySettings;
  options: RequestOptions;
  logger: Logger | undefined;
  /** The turn's span, when it is recorded: each open carries its trace context and records its status. */
  trace?: TurnTrace | undefined;
}

/** What `httpTurnEvents` reads a turn with: where it goes, and what it keeps across connections. */
export interface TurnRead<I> {
  request: StreamRequest;
  state: StreamState<I>;
}

/**
 * The events of a streamed turn over HTTP, a chunk's worth at a time. `prepare` runs at the first read, so
 * that what it throws (a bad input) fails that read. A connection that breaks (read failure, silence past
 * the idle limit, a body that ends before the terminal event, damaged events) is re-opened by sending the
 * same body with the same key, which re-delivers the stored outcome; `state` reconciles it with what was
 * shown.
 */
export async function* httpTurnEvents<I>(prepare: () => TurnRead<I>): AsyncGenerator<StreamEvent<I>[]> {
  const { request, state } = prepare();
  const { options, call } = request;
  let resumes = 0;
  let reason: string | undefined;
  for (;;) {
    const response = await open(request, resumes, reason, state);
    if (reason !== undefined) {
      state.restart();
      yield [{ type: 'resumed', attempt: resumes, reason }];
    }
    try {
      if (!response.body) throw new StreamBreak('the response had no body');
      const events = readEvents(
        response.body,
        { idleMs: request.idleMs, maxBytes: request.maxBytes, signal: options.signal },
        state.take,
      );
      if (yield* events) return;
      throw new StreamBreak('the stream ended before its terminal event');
    } catch (error) {
      if (!(error instanceof StreamBreak || error instanceof ConnectionError)) throw error;
      if (resumes >= request.maxResumes) throw interrupted(request, state, resumes, error);
      resumes++;
      reason = error.message;
      request.logger?.warn?.('re-opening a broken stream with its key', {
        idempotencyKey: call.idempotencyKey,
        attempt: resumes,
        reason,
      });
    }
  }
}

/** Opens (or re-opens) the stream; a re-open that fails for good becomes a `StreamInterruptedError`. */
async function open<I>(
  request: StreamRequest,
  resumes: number,
  reason: string | undefined,
  state: StreamState<I>,
) {
  const { transport, options, trace } = request;
  const call = {
    method: 'POST',
    path: request.path,
    body: request.body,
    kind: 'turn',
    headers: trace ? trace.headers(request.call.headers) : request.call.headers,
    options,
  } as const;
  request.call.sent = true;
  try {
    // A re-open first waits the backoff of its resume; then it polls the key's running turn up to `settleMs`.
    const deadline = Date.now() + request.settleMs;
    const response = await transport.open(call, 'text/event-stream', {
      deadline,
      resumed: resumes,
      settings: request.settings,
      attempt: trace && ((n) => trace.attempt(n)),
    });
    trace?.status(response.status);
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) {
      // Not awaited: some fetches (msw 2.x) never settle a body's cancel, and the error is known already.
      response.body?.cancel().catch(() => {});
      const got = transport.redact(type) || 'no content type';
      throw new ResponseValidationError(`expected text/event-stream, got ${got}`, {
        path: '',
        body: undefined,
        status: response.status,
      });
    }
    return response;
  } catch (error) {
    // The first open throws what it got; a failed re-open says the stream was interrupted.
    if (reason === undefined || error instanceof AbortError || !(error instanceof ConvoError)) throw error;
    throw interrupted(request, state, resumes, error);
  }
}

function interrupted<I>(request: StreamRequest, state: StreamState<I>, resumes: number, cause: unknown) {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new StreamInterruptedError(`the stream broke (${why}) and could not be recovered`, {
    chatId: request.call.chatId,
    messageId: state.start?.message_id,
    idempotencyKey: request.call.idempotencyKey,
    resumes,
    cause,
  });
}
