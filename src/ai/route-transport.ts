import {
  type ChatTransport,
  DefaultChatTransport,
  type HttpChatTransportInitOptions,
  type UIMessageChunk,
} from 'ai';
import type { ConvoUIMessage } from './parts.js';
import { unpackRestate } from './restate.js';

type FetchFunction = typeof globalThis.fetch;

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

  /**
   * A transport posting to `options.api` (default `/api/chat`), with the options of `DefaultChatTransport`.
   * A route's error answer (`{ error: { name, message } }`) reaches `chat.error.message` as its message.
   */
  constructor(options: HttpChatTransportInitOptions<ConvoUIMessage> = {}) {
    super({ ...options, fetch: withRouteMessages(options.fetch) });
  }

  /** Posts the messages; the chat's `stop()` (its `abortSignal`) then sends the stop. */
  override async sendMessages(options: SendOptions): Promise<ReadableStream<UIMessageChunk>> {
    await this.#stops.get(options.chatId);
    return this.#stopping(options.chatId, options.abortSignal, () => super.sendMessages(options));
  }

  /**
   * Resumes the chat's answer; the chat's `stop()` then sends the stop. A continuation after a tool
   * approval brings the message it continues (`data-convo-restate`), which is written first: the page
   * reads the answer from its start and shows the tools and text from before the approval.
   */
  override async reconnectToStream(
    options: ReconnectOptions,
  ): Promise<ReadableStream<UIMessageChunk> | null> {
    const stream = await this.#stopping(options.chatId, options.abortSignal, () =>
      super.reconnectToStream(options),
    );
    return stream?.pipeThrough(unpackRestate()) ?? null;
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

/** The longest error answer read for its message, in characters: a route's error is one short sentence. */
const MAX_ERROR_CHARS = 4096;

/**
 * `fetch` (the global one, looked up per call, when absent) whose error answers in the route's shape
 * (`{ error: { name, message, field? } }`, `createChatRoute`) come back with that message as their text, the
 * status kept: the AI SDK makes the text of an error answer the message of the error it throws.
 */
function withRouteMessages(fetch: FetchFunction | undefined): FetchFunction {
  return async (input, init) => {
    const response = await (fetch ?? globalThis.fetch)(input, init);
    if (response.ok || !response.headers.get('content-type')?.includes('application/json')) return response;
    const text = await response.text();
    const message = text.length <= MAX_ERROR_CHARS ? routeMessage(text) : undefined;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    if (message !== undefined) headers.set('content-type', 'text/plain; charset=utf-8');
    return new Response(message ?? text, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}

/** The message of a route's error answer; `undefined` when `text` is not one. */
function routeMessage(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  return typeof error?.message === 'string' && error.message !== '' ? error.message : undefined;
}

/** The value of an option given as a value or a function. */
async function resolved<T>(value: T | (() => T | PromiseLike<T>) | undefined): Promise<T | undefined> {
  return typeof value === 'function' ? await (value as () => T | PromiseLike<T>)() : value;
}
