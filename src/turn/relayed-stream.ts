import { ConvoError, RelayedTurnError } from '../errors/index.js';
import { CLIENT_DEFAULTS } from '../http/defaults.js';
import type { Logger } from '../http/transport.js';
import { type RelayedInteraction, toRelayedInteraction } from '../interactions/relayed.js';
import type { ErrorEvent, StreamEvent } from '../stream/events.js';
import { StreamState } from '../stream/map.js';
import { readEvents } from '../stream/sse.js';
import { EventStream } from './event-stream.js';

/** Every event a relayed stream yields: interactions are data, answered on the server. */
export type RelayedStreamEvent = StreamEvent<RelayedInteraction>;

/** Options of `RelayedTurnStream.fromReadableStream`. */
export interface RelayReadOptions {
  /** No event (not even a ping) for this long means the relay is dead (default 45,000 ms). */
  idleTimeout?: number | undefined;
  /**
   * Largest relayed body, in bytes, 1 to 2^29 (default 64 MiB): past it reading stops with
   * `TurnTooLargeError`.
   */
  maxTurnBytes?: number | undefined;
  /** Surface `ping` events (default false). */
  pings?: boolean | undefined;
  /** Where to log dropped events. */
  logger?: Logger | undefined;
  /** Aborts reading. */
  signal?: AbortSignal | undefined;
}

/**
 * A turn read from a relay (`RelayedTurnStream.fromReadableStream`): the same events and text as the server's
 * stream, but it has no key, cannot cancel, and its interactions carry data only.
 */
export class RelayedTurnStream extends EventStream<RelayedInteraction> {
  /**
   * Reads a turn relayed by `toReadableStream()` (for instance in a browser); folds it the same way. A
   * static of its own class, so that an app that never reads a relay does not ship this one.
   */
  static fromReadableStream(
    stream: ReadableStream<Uint8Array>,
    options: RelayReadOptions = {},
  ): RelayedTurnStream {
    const state = new StreamState({
      pings: options.pings ?? false,
      logger: options.logger,
      interaction: (raw, chatId) => toRelayedInteraction(raw, chatId || undefined, Date.now()),
    });
    // Its own controller, so that cancelling a re-relay (`toReadableStream()`) ends the read at once.
    const controller = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    const events = readEvents(
      stream,
      {
        idleMs: options.idleTimeout ?? CLIENT_DEFAULTS.idleTimeout,
        maxBytes: options.maxTurnBytes ?? CLIENT_DEFAULTS.maxTurnBytes,
        signal,
      },
      state.take,
    );
    return new RelayedTurnStream(relayed(events), undefined, (reason) => controller.abort(reason));
  }

  /** The chat of the turn, once `message.start` said it. */
  get chatId(): string | undefined {
    return this.knownChatId;
  }

  protected override failure(end: ErrorEvent): Error {
    return new RelayedTurnError(end.error, { chatId: this.knownChatId, messageId: this.messageId });
  }

  protected override fork(
    source: AsyncIterable<StreamEvent<RelayedInteraction>[]>,
    stop: (reason?: unknown) => void,
  ): this {
    return new RelayedTurnStream(source, this.knownChatId, stop) as this;
  }

  /** A relay has no key: its errors say the chat and the message, once `message.start` said them. */
  protected override locate(error: unknown): unknown {
    if (error instanceof ConvoError) {
      error.chatId ??= this.knownChatId;
      error.messageId ??= this.messageId;
    }
    return error;
  }
}

async function* relayed(
  events: AsyncGenerator<StreamEvent<RelayedInteraction>[], boolean>,
): AsyncGenerator<StreamEvent<RelayedInteraction>[]> {
  if (!(yield* events)) throw new ConvoError('the relayed stream ended before its terminal event');
}
