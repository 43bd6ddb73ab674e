import { AbortError, ConnectionError, ConvoError, ResponseValidationError } from '../errors.js';
import { sleep } from '../http/retry.js';
import type { Logger, RequestOptions, Transport } from '../http/transport.js';
import { sendKeyed } from '../http/turn-retry.js';
import { StreamBreak, StreamInterruptedError } from './errors.js';
import type { TurnStreamEvent } from './events.js';
import type { StreamState } from './map.js';
import { readEvents } from './sse.js';

/** Everything needed to open, and re-open, one streamed turn. */
export interface StreamRequest {
  transport: Transport;
  /** Path of the streaming send. */
  path: string;
  body: object;
  chatId: string;
  idempotencyKey: string;
  /** No byte for this long means the connection is dead. */
  idleMs: number;
  /** How many times a broken stream is re-opened before giving up. */
  maxResumes: number;
  /** How long a re-opened stream may wait for the running turn (409 in progress) before giving up. */
  settleMs: number;
  options: RequestOptions;
  logger: Logger | undefined;
}

/**
 * The events of a streamed turn over HTTP, a chunk's worth at a time. A connection that breaks (read
 * failure, silence past the idle limit, a body that ends before the terminal event, damaged events) is
 * re-opened by sending the same body with the same key, which re-delivers the stored outcome; `state`
 * reconciles it with what was shown.
 */
export async function* httpTurnEvents(
  request: StreamRequest,
  state: StreamState,
): AsyncGenerator<TurnStreamEvent[]> {
  const { transport, options, idempotencyKey } = request;
  const settings = transport.retrySettings(options);
  let resumes = 0;
  let reason: string | undefined;
  for (;;) {
    const response = await open(request, resumes, reason, state);
    if (reason !== undefined) {
      state.fold.restart();
      yield [{ type: 'resumed', attempt: resumes, reason }];
    }
    try {
      if (!response.body) throw new StreamBreak('the response had no body');
      const events = readEvents(response.body, { idleMs: request.idleMs, signal: options.signal });
      if (yield* state.connection(events)) return;
      throw new StreamBreak('the stream ended before its terminal event');
    } catch (error) {
      if (!(error instanceof StreamBreak || error instanceof ConnectionError)) throw error;
      if (resumes >= request.maxResumes) throw interrupted(request, state, resumes, error);
      resumes++;
      reason = error.message;
      request.logger?.warn?.('re-opening a broken stream with its key', {
        idempotencyKey,
        attempt: resumes,
        reason,
      });
      await sleep(Math.min(settings.minDelayMs * 2 ** (resumes - 1), settings.maxDelayMs), options.signal);
    }
  }
}

/** Opens (or re-opens) the stream; a re-open that fails for good becomes a `StreamInterruptedError`. */
async function open(request: StreamRequest, resumes: number, reason: string | undefined, state: StreamState) {
  const { transport, options } = request;
  const call = {
    method: 'POST',
    path: request.path,
    body: request.body,
    headers: { 'idempotency-key': request.idempotencyKey },
    options,
  } as const;
  try {
    const response = await sendKeyed(() => transport.open(call, 'text/event-stream'), {
      deadline: Date.now() + request.settleMs,
      settings: transport.retrySettings(options),
      signal: options.signal,
    });
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) {
      await response.body?.cancel();
      throw new ResponseValidationError(`expected text/event-stream, got ${type || 'no content type'}`, {
        path: '',
        body: undefined,
        status: response.status,
      });
    }
    return response;
  } catch (error) {
    if (error instanceof ConvoError) error.idempotencyKey = request.idempotencyKey;
    // The first open throws what it got; a failed re-open says the stream was interrupted.
    if (reason === undefined || error instanceof AbortError || !(error instanceof ConvoError)) throw error;
    throw interrupted(request, state, resumes, error);
  }
}

function interrupted(request: StreamRequest, state: StreamState, resumes: number, cause: unknown) {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new StreamInterruptedError(`the stream broke (${why}) and could not be recovered`, {
    chatId: request.chatId,
    messageId: state.start?.message_id,
    idempotencyKey: request.idempotencyKey,
    resumes,
    cause,
  });
}
