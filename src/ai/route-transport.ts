import {
  type ChatTransport,
  DefaultChatTransport,
  type HttpChatTransportInitOptions,
  type UIMessageChunk,
} from 'ai';
import type { ConvoUIMessage } from './parts.js';

type SendOptions = Parameters<ChatTransport<ConvoUIMessage>['sendMessages']>[0];
type ReconnectOptions = Parameters<ChatTransport<ConvoUIMessage>['reconnectToStream']>[0];

/**
 * The page's side of `createChatRoute`: the AI SDK's `DefaultChatTransport` (`POST {api}`, resume with
 * `GET {api}/{chatId}/stream`) that also tells the route when the chat's `stop()` was called, with
 * `POST {api}/{chatId}/stop`, which cancels the turn. A reload aborts nothing in JavaScript: the route
 * sees only a closed request, and the turn runs on for `useChat({ resume: true })`.
 */
export class ConvoRouteTransport extends DefaultChatTransport<ConvoUIMessage> {
  /** Stops on their way, by chat: the next send waits for its chat's, so that it finds the turn cancelled. */
  readonly #stops = new Map<string, Promise<void>>();

  /** A transport posting to `options.api` (default `/api/chat`), with the options of `DefaultChatTransport`. */
  constructor(options: HttpChatTransportInitOptions<ConvoUIMessage> = {}) {
    super(options);
  }

  /** Posts the messages; the chat's `stop()` (its `abortSignal`) then sends the stop. */
  override async sendMessages(options: SendOptions): Promise<ReadableStream<UIMessageChunk>> {
    await this.#stops.get(options.chatId);
    return this.#stopping(options.chatId, options.abortSignal, () => super.sendMessages(options));
  }

  /** Resumes the chat's answer; the chat's `stop()` then sends the stop. */
  override async reconnectToStream(
    options: ReconnectOptions,
  ): Promise<ReadableStream<UIMessageChunk> | null> {
    return this.#stopping(options.chatId, options.abortSignal, () => super.reconnectToStream(options));
  }

  /** Runs `read`; an abort of `signal` while its answer streams sends the stop (once). */
  async #stopping<T extends ReadableStream<UIMessageChunk> | null>(
    chatId: string,
    signal: AbortSignal | undefined,
    read: () => Promise<T>,
  ): Promise<T> {
    if (!signal) return read();
    const stop = () => {
      const sent = this.#stop(chatId).catch(() => {});
      this.#stops.set(chatId, sent);
      void sent.then(() => {
        if (this.#stops.get(chatId) === sent) this.#stops.delete(chatId);
      });
    };
    signal.addEventListener('abort', stop, { once: true });
    try {
      const stream = await read();
      if (!stream) signal.removeEventListener('abort', stop);
      // The answer ended: a later abort (the chat's cleanup) stops nothing.
      return (stream?.pipeThrough(
        new TransformStream<UIMessageChunk, UIMessageChunk>({
          flush: () => signal.removeEventListener('abort', stop),
        }),
      ) ?? stream) as T;
    } catch (error) {
      signal.removeEventListener('abort', stop);
      throw error;
    }
  }

  /** `POST {api}/{chatId}/stop` with the transport's headers and credentials. */
  async #stop(chatId: string): Promise<void> {
    const headers = await resolved(this.headers);
    const credentials = await resolved(this.credentials);
    const url = `${this.api.replace(/\/+$/, '')}/${encodeURIComponent(chatId)}/stop`;
    await (this.fetch ?? globalThis.fetch)(url, {
      method: 'POST',
      headers: new Headers(headers),
      ...(credentials ? { credentials } : {}),
    });
  }
}

/** The value of an option given as a value or a function. */
async function resolved<T>(value: T | (() => T | PromiseLike<T>) | undefined): Promise<T | undefined> {
  return typeof value === 'function' ? await (value as () => T | PromiseLike<T>)() : value;
}
