import type { ElicitationValidator } from '../contract/elicitation.js';
import { LIMITS } from '../contract/limits.js';
import type { Turn } from '../contract/turn.js';
import { CLIENT_DEFAULTS } from '../http/defaults.js';
import type { RequestOptions, Transport } from '../http/transport.js';
import { checkOption } from '../http/validate.js';
import type { AnswerSender } from '../interactions/interaction.js';
import { type Interaction, toInteraction } from '../interactions/kinds.js';
import { StreamState } from '../stream/map.js';
import { TurnCall } from './call.js';
import { type CancelEndpoints, turnCancels } from './cancel.js';
import { httpTurnEvents } from './connect.js';
import type { RunHandlers } from './run.js';
import { type TracedTurn, tracedAnswer, tracedEvents } from './traced.js';
import { TurnStream } from './turn-stream.js';

/** Options of a turn call: a request's options and the turn's `Idempotency-Key`. */
export interface TurnOptions extends RequestOptions {
  /** The key that makes the turn idempotent; a random UUID when absent. Persist it to read the outcome later. */
  idempotencyKey?: string | undefined;
}

/** Options of a streamed turn. */
export interface StreamOptions extends TurnOptions {
  /**
   * No event (not even a ping) for this long means the connection is dead: 1 to 2^31-1 ms (default 45,000
   * ms: 3 pings). Bytes that make no event (comments, junk) do not count.
   */
  idleTimeout?: number | undefined;
  /** How many times a broken stream is re-opened with its key before giving up: 0 to 100 (default 5). */
  maxResumes?: number | undefined;
  /**
   * Largest body one connection of the turn delivers, in bytes, 1 to 2^29 (default the client's, else 64
   * MiB): past it reading stops with `TurnTooLargeError`, the turn runs on. A re-opened connection replays
   * the turn from its start, so each is counted from zero.
   */
  maxTurnBytes?: number | undefined;
  /** Yield `ping` events too (default false). */
  pings?: boolean | undefined;
  /**
   * When `signal` aborts after the turn was sent, also cancel the turn at the service (4.6); by default an
   * abort only stops reading and the turn runs on (default false).
   */
  cancelOnAbort?: boolean | undefined;
}

/** A re-opened stream waits past the service's own 30-minute cut for the key's running turn to settle. */
export const SETTLE_MS = LIMITS.syncTurnMaxMs + 60_000;

/** What a streamed turn needs from the layers above: where it goes, and the client's answer endpoints. */
export interface TurnSetup extends CancelEndpoints {
  transport: Transport;
  chatId: string;
  /**
   * The streaming send's path and body, checked: called at the first read, so that a bad input fails the
   * stream there (like any other error of the call) instead of throwing from the method that returned it.
   */
  request: () => { path: string; body: object };
  options: StreamOptions;
  /** Sends an interaction's answer. */
  answer: AnswerSender;
  /** Checks elicitation answers against their schema (the client's `elicitationValidator`). */
  validate?: ElicitationValidator | undefined;
  /** The client's `maxTurnBytes`, for a call that gives none. */
  maxTurnBytes?: number | undefined;
}

/**
 * Opens a streamed turn: its key, its connection (re-opened with the key when it breaks), its fold, and
 * interactions that answer themselves. Nothing is sent before the stream is first read.
 */
export function openTurnStream(
  setup: TurnSetup,
  call = new TurnCall(setup.chatId, setup.options.idempotencyKey),
): TurnStream {
  const { transport, options } = setup;
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const logger = transport.logger;
  const { cancel, cancelIfRunning } = turnCancels(setup, call, options.timeout);
  const onAbort = () => {
    if (!call.sent) return;
    cancel().catch((error: unknown) => {
      logger?.warn?.('could not cancel the turn after an abort', {
        idempotencyKey: call.idempotencyKey,
        error: String(error),
      });
    });
  };
  const watched = options.cancelOnAbort ? options.signal : undefined;
  watched?.addEventListener('abort', onAbort, { once: true });
  // Recorded only when a provider is there (one branch otherwise): the span is made at the first read.
  const gate = transport.telemetry;
  const traced: TracedTurn | undefined = gate.on() ? { trace: undefined, owner: undefined } : undefined;
  const answer = traced ? tracedAnswer(setup.answer, traced) : setup.answer;
  let events = httpTurnEvents(() => {
    checkOption('idleTimeout', options.idleTimeout);
    checkOption('maxResumes', options.maxResumes);
    checkOption('maxTurnBytes', options.maxTurnBytes);
    // Read once for the stream's re-reads and all its opens; checks the request's own numeric options too.
    const settings = transport.retrySettings(options);
    const state = new StreamState<Interaction>({
      pings: options.pings ?? false,
      logger,
      interaction: (raw) =>
        toInteraction(raw, {
          answer,
          chatId: call.chatId,
          receivedAt: Date.now(),
          validate: setup.validate,
        }),
      rereads: settings.maxRetries,
      redact: transport.redact,
    });
    const request = {
      transport,
      ...setup.request(),
      call,
      idleMs: options.idleTimeout ?? CLIENT_DEFAULTS.idleTimeout,
      maxResumes: options.maxResumes ?? CLIENT_DEFAULTS.maxResumes,
      maxBytes: options.maxTurnBytes ?? setup.maxTurnBytes ?? CLIENT_DEFAULTS.maxTurnBytes,
      settleMs: SETTLE_MS,
      settings,
      options: { ...options, signal },
      logger,
      trace: traced?.trace,
    };
    return { request, state };
  });
  if (traced) events = tracedEvents(gate, traced, { chatId: call.chatId, request: setup.request }, events);
  const stream = new TurnStream(events, call, {
    abort: (reason) => controller.abort(reason),
    cancel,
    cancelIfRunning,
    // A caller's long-lived signal must not keep every finished turn alive.
    release: () => watched?.removeEventListener('abort', onAbort),
  });
  if (traced) traced.owner = stream;
  return stream;
}

/**
 * Opens a streamed turn and answers its interactions through `handlers` (see `runTurn`). The loop is loaded
 * by the first `run`, not on import: an app that only streams does not ship it.
 */
export async function runTurnStream(setup: TurnSetup & { options: RunHandlers }): Promise<Turn> {
  const { runTurn } = await import('./run.js');
  const call = new TurnCall(setup.chatId, setup.options.idempotencyKey);
  const run = () => runTurn(openTurnStream(setup, call), call, setup.options, setup.transport.logger);
  // The handler loop's span, parent of the turn's and of its answers', when a provider is there.
  const gate = setup.transport.telemetry;
  const telemetry = gate.on() ? await gate.load().catch(() => undefined) : undefined;
  return telemetry ? telemetry.within({ name: 'turns.run', chatId: call.chatId }, run) : run();
}
