import type { ChatTransport, DefaultChatTransport, HttpChatTransportInitOptions, UIMessageChunk } from 'ai';
import type { ConvoUIMessage } from './parts.js';
import { aiSdk } from './route-sdk.js';

type SendOptions = Parameters<ChatTransport<ConvoUIMessage>['sendMessages']>[0];
type ReconnectOptions = Parameters<ChatTransport<ConvoUIMessage>['reconnectToStream']>[0];

/**
 * The page's side of `createChatRoute`: the AI SDK's `DefaultChatTransport` (`POST {api}`, resume with
 * `GET {api}/{chatId}/stream`) that also tells the route when the chat's `stop()` was called, with
 * `POST {api}/{chatId}/stop`, which cancels the turn. A reload aborts nothing in JavaScript: the route
 * sees only a closed request, and the turn runs on for `useChat({ resume: true })`.
 */
export class ConvoRouteTransport implements ChatTransport<ConvoUIMessage> {
  /** A resume reads the answer again from its start: the AI SDK rebuilds the message. */
  readonly resumeStreamIsReplay = true;
  readonly #options: HttpChatTransportInitOptions<ConvoUIMessage>;
  #http: Promise<DefaultChatTransport<ConvoUIMessage>> | undefined;
  /** Stops on their way, by chat: the next send waits for its chat's, so that it finds the turn cancelled. */
  readonly #stops = new Map<string, Promise<void>>();

  /** A transport posting to `options.api` (default `/api/chat`), with the options of `DefaultChatTransport`. */
  constructor(options: HttpChatTransportInitOptions<ConvoUIMessage> = {}) {
    this.#options = options;
  }

  /** Posts the messages; the chat's `stop()` (its `abortSignal`) then sends the stop. */
  async sendMessages(options: SendOptions): Promise<ReadableStream<UIMessageChunk>> {
    await this.#stops.get(options.chatId);
    const http = await this.#transport();
    return this.#stopping(options.chatId, options.abortSignal, () => http.sendMessages(options));
  }

  /** Resumes the chat's answer; the chat's `stop()` then sends the stop. */
  async reconnectToStream(options: ReconnectOptions): Promise<ReadableStream<UIMessageChunk> | null> {
    const http = await this.#transport();
    return this.#stopping(options.chatId, options.abortSignal, () => http.reconnectToStream(options));
  }

  /** The AI SDK's HTTP transport, made at the first request (`ai` is loaded then). */
  #transport(): Promise<DefaultChatTransport<ConvoUIMessage>> {
    this.#http ??= aiSdk().then(({ DefaultChatTransport }) => new DefaultChatTransport(this.#options));
    return this.#http;
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
    const { api = '/api/chat', fetch = globalThis.fetch } = this.#options;
    const headers = await resolved(this.#options.headers);
    const credentials = (await resolved(this.#options.credentials)) ?? 'same-origin';
    await fetch(`${api.replace(/\/+$/, '')}/${encodeURIComponent(chatId)}/stop`, {
      method: 'POST',
      headers: new Headers(headers),
      credentials,
    });
  }
}

/** The value of an option given as a value or a function. */
async function resolved<T>(value: T | (() => T | PromiseLike<T>) | undefined): Promise<T | undefined> {
  return typeof value === 'function' ? await (value as () => T | PromiseLike<T>)() : value;
}
