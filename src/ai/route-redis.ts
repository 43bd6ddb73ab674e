import { RedisUnavailableError } from '../index.js';
import type { RouteRecord, RouteRecordStore } from './route-records.js';
import { type RouteStreams, watched } from './route-streams.js';

/**
 * The `redis` option of `createChatRoute`: the route makes, watches and reconnects its own clients of the
 * `redis` package (node-redis, an optional peer, with `resumable-stream`) from `url`, or duplicates
 * `client`, one of yours (which stays yours: the route never closes it).
 */
export type RouteRedisOptions = ({ url: string } | { client: RouteRedisClient }) & {
  /** The prefix of every key and channel the route uses (default `convo-route`). */
  keyPrefix?: string | undefined;
};

/** What the route uses of a node-redis client (`createClient()` of the `redis` package, v5 or v6). */
export interface RouteRedisClient {
  /** Connected, and not reconnecting. */
  readonly isReady: boolean;
  /** A new client with the same options. */
  duplicate(): unknown;
}

/** The part of node-redis the route calls, once its clients exist. */
interface Redis {
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  on(event: 'error' | 'ready', listener: (error?: unknown) => void): unknown;
  get(key: string): Promise<unknown>;
  set(key: string, value: string, options: { PX?: number; EX?: number }): Promise<unknown>;
  del(key: string): Promise<unknown>;
  incr(key: string): Promise<number>;
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  destroy(): unknown;
}

/** How long a turn's lease lives unless the process that reads it renews it: a dead process's expires. */
export const LEASE_MS = 3000;
/** How often a live turn's lease is renewed. */
const RENEW_MS = 1000;
/** How long the route waits for Redis to answer one of its own reads before it does without. */
const REDIS_WAIT_MS = 1000;
/** How long the first request waits for the clients to connect. */
const CONNECT_WAIT_MS = 2000;
/** How long a chat's record is kept in Redis: a day, as `resumable-stream` keeps its markers. */
const RECORD_SECONDS = 24 * 60 * 60;

/** Loaded at run time, only by a route given `redis`: the package imports without them. */
const load = (name: string): Promise<Record<string, unknown>> =>
  import(/* webpackIgnore: true */ /* @vite-ignore */ name) as Promise<Record<string, unknown>>;

/**
 * The route's Redis: two clients (commands, and subscriptions), each with an `'error'` listener (without
 * one, node-redis throws on a lost connection and the process exits) and node-redis's reconnection;
 * commands fail at once while Redis is away (no offline queue), so nothing waits on it. Its `streams`
 * hold live answers through `resumable-stream`, each under a lease the reading process renews: a resume
 * of a turn whose lease lapsed (its process died) reads the turn again by key from the service instead
 * of waiting for an acknowledgement nobody will send.
 */
export class RouteRedis {
  readonly #options: RouteRedisOptions;
  readonly #prefix: string;
  /** Its clients, and of them the route's own (both when made from `url`; else the duplicate alone). */
  #clients: Promise<{ main: Redis; sub: Redis; own: Redis[]; context: ResumableContext }> | undefined;
  readonly #timers = new Set<ReturnType<typeof setInterval>>();
  /** The last connection error, for `close()`'s callers and tests; never thrown at the process. */
  lastError: unknown;

  readonly #reconnected: () => void;

  /** `reconnected` runs each time the command client is ready again (a restarted Redis may have lost every key). */
  constructor(options: RouteRedisOptions, reconnected: () => void) {
    this.#options = options;
    this.#reconnected = reconnected;
    this.#prefix = options.keyPrefix ?? 'convo-route';
  }

  /** Whether Redis can be used now; connects on first use (a `RedisUnavailableError` when it cannot). */
  async ready(): Promise<void> {
    try {
      const { main, sub } = await this.#connect();
      if (main.isReady && sub.isReady) return;
    } catch (error) {
      throw new RedisUnavailableError(error);
    }
    throw new RedisUnavailableError(this.lastError);
  }

  /** The chats' records, under `{prefix}:record:{chatId}` for a day. */
  readonly records: RouteRecordStore = {
    get: async (chatId) => {
      const { main } = await this.#connect();
      const text = await bounded(main.get(this.#key('record', chatId)));
      return typeof text === 'string' ? (JSON.parse(text) as RouteRecord) : undefined;
    },
    set: async (chatId, record) => {
      const { main } = await this.#connect();
      await bounded(main.set(this.#key('record', chatId), JSON.stringify(record), { EX: RECORD_SECONDS }));
    },
    delete: async (chatId) => {
      const { main } = await this.#connect();
      await bounded(main.del(this.#key('record', chatId)));
    },
  };

  /** Live answers, through `resumable-stream`, each under a lease. */
  readonly streams: RouteStreams = {
    createNewResumableStream: async (streamId, makeStream) => {
      const { main, context } = await this.#connect();
      const lease = this.#key('lease', streamId);
      const renew = () => main.set(lease, '1', { PX: LEASE_MS }).catch(() => {});
      await renew();
      const timer = setInterval(renew, RENEW_MS);
      // Stryker disable next-line OptionalChaining: Node's timers have `unref`; the `?.` is for runtimes whose timers are numbers
      (timer as { unref?: () => void }).unref?.();
      this.#timers.add(timer);
      // Renewed no more at the end (the lease then lapses): a follower closes on the end marker first.
      const stop = () => {
        clearInterval(timer);
        this.#timers.delete(timer);
      };
      try {
        return await late(
          context.createNewResumableStream(streamId, () => framed(watched(makeStream(), stop))),
        );
      } catch (error) {
        stop();
        throw new RedisUnavailableError(error);
      }
    },
    resumeExistingStream: async (streamId) => {
      try {
        const { main, context } = await this.#connect();
        // A lapsed lease: the process that read the turn is gone, and nobody would acknowledge.
        const lease = this.#key('lease', streamId);
        if ((await bounded(main.get(lease))) === null) return undefined;
        const stream = await late(context.resumeExistingStream(streamId));
        // The reading process may die while this follows: it fails once its lease lapses.
        const lapsed = async () => (await bounded(main.get(lease)).catch(() => null)) === null;
        return stream ? unframed(leased(stream, lapsed, this.#timers)) : stream;
      } catch {
        // Redis away, or the reading process died since: the caller reads the turn again by key.
        return undefined;
      }
    },
  };

  /** Stops renewing leases and closes the clients the route made (never a client it was given). */
  async close(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.clear();
    const clients = await this.#clients?.catch(() => undefined);
    for (const client of clients?.own ?? []) client.destroy();
  }

  #key(kind: string, id: string): string {
    return `${this.#prefix}:${kind}:${id}`;
  }

  #connect() {
    if (!this.#clients) {
      this.#clients = this.#create();
      // A first connection that failed is tried again by the next request. This handler is the promise's
      // first: it runs before anything else sees the failure, so nothing has replaced it by then.
      this.#clients.catch(() => {
        this.#clients = undefined;
      });
    }
    return this.#clients;
  }

  async #create() {
    const options = this.#options;
    let main: Redis;
    if ('url' in options) {
      const { createClient } = (await load('redis')) as {
        createClient: (options: object) => Redis;
      };
      main = createClient({ url: options.url, disableOfflineQueue: true });
    } else main = options.client as unknown as Redis;
    const sub = (main as unknown as RouteRedisClient).duplicate() as Redis;
    const own = 'url' in options ? [main, sub] : [sub];
    for (const client of [main, sub])
      client.on('error', (error) => {
        this.lastError = error;
      });
    main.on('ready', () => this.#reconnected());
    const { createResumableStreamContext } = (await load('resumable-stream/generic')) as {
      createResumableStreamContext: (options: object) => ResumableContext;
    };
    // The race handles a late rejection: nothing is left unhandled.
    await within(Promise.all(own.map((client) => client.connect())), CONNECT_WAIT_MS);
    const context = createResumableStreamContext({
      waitUntil: null,
      keyPrefix: this.#prefix,
      // A follower whose end marker was lost (Redis away) sees the finished sentinel within two seconds.
      doneWatchdogIntervalMs: 1000,
      publisher: safePublisher(main),
      subscriber: safeSubscriber(sub),
    });
    return { main, sub, own, context };
  }
}

/** What the route uses of a `resumable-stream` context. */
type ResumableContext = RouteStreams;

/**
 * The publisher `resumable-stream` is given: its calls that run detached from any request (a chunk
 * published to a follower, the end marker, a sentinel read in a timer) never reject, since nothing would
 * catch them and the process would exit; a failed one is as if Redis had lost the message.
 */
function safePublisher(client: Redis) {
  return {
    connect: async () => {},
    publish: (channel: string, message: string) => client.publish(channel, message).catch(() => 0),
    set: (key: string, value: string, options?: { EX?: number }) =>
      client.set(key, value, options ?? {}).catch(() => null),
    get: (key: string) => bounded(client.get(key)).catch(() => null) as Promise<string | null>,
    incr: (key: string) => client.incr(key),
  };
}

/** The subscriber `resumable-stream` is given: a subscription fails as usual (its caller awaits it), an unsubscribe never. */
function safeSubscriber(client: Redis) {
  return {
    connect: async () => {},
    subscribe: (channel: string, listener: (message: string) => void) => client.subscribe(channel, listener),
    unsubscribe: (channel: string) => client.unsubscribe(channel).catch(() => undefined),
  };
}

/** `promise`, or a rejection once `REDIS_WAIT_MS` passed. */
function bounded<T>(promise: Promise<T>): Promise<T> {
  return within(promise, REDIS_WAIT_MS);
}

/**
 * A stream `resumable-stream` makes, or a rejection once `CONNECT_WAIT_MS` passed: its commands and the ack
 * it waits for (about a second) never answer when Redis goes away mid-way. One that comes after is cancelled.
 */
function late<T extends ReadableStream<string> | null | undefined>(making: Promise<T>): Promise<T> {
  return within(making, CONNECT_WAIT_MS).catch((error: unknown) => {
    void making.then((stream) => stream?.cancel().catch(() => {})).catch(() => {});
    throw error;
  });
}

/** `promise`, or a rejection once `ms` passed. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** `stream`, failed once `lapsed()` says its lease lapsed (checked every `RENEW_MS`). */
function leased(
  stream: ReadableStream<string>,
  lapsed: () => Promise<boolean>,
  timers: Set<ReturnType<typeof setInterval>>,
): ReadableStream<string> {
  const reader = stream.getReader();
  let timer: ReturnType<typeof setInterval> | undefined;
  const done = () => {
    clearInterval(timer);
    timers.delete(timer as ReturnType<typeof setInterval>);
  };
  return new ReadableStream<string>({
    start(controller) {
      timer = setInterval(async () => {
        if (!(await lapsed())) return;
        done();
        try {
          controller.error(new Error('the process reading the turn is gone: resume to read it again'));
        } catch {
          // Already over.
        }
        void reader.cancel().catch(() => {});
      }, RENEW_MS);
      // Stryker disable next-line OptionalChaining: as above
      (timer as { unref?: () => void }).unref?.();
      timers.add(timer);
    },
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          done();
          controller.close();
        } else controller.enqueue(next.value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

/** Starts a frame: its number, then `FRAME_BODY`, then the chunk (never in a JSON text: it escapes controls). */
const FRAME = '\u0001';
const FRAME_BODY = '\u0002';
/** The body of the last frame: the answer ended here. */
const FRAME_END = '\u0003';

/**
 * Each chunk of `stream` numbered, and its end marked: Redis pub/sub loses what is published while it is
 * away, and `resumable-stream` follows without sequence numbers, so its follower checks them (`unframed`).
 */
function framed(stream: ReadableStream<string>): ReadableStream<string> {
  let seq = 0;
  return stream.pipeThrough(
    new TransformStream<string, string>({
      transform: (chunk, controller) => controller.enqueue(`${FRAME}${seq++}${FRAME_BODY}${chunk}`),
      flush: (controller) => controller.enqueue(`${FRAME}${seq}${FRAME_BODY}${FRAME_END}`),
    }),
  );
}

/**
 * A followed answer without its frames: it fails at the first chunk missing (a message Redis lost), and when
 * it ends without the end marker, so that its reader reads the turn again rather than a text with a hole.
 */
function unframed(stream: ReadableStream<string>): ReadableStream<string> {
  let expected = 0;
  let over = false;
  const broken = () =>
    new Error('the held answer broke off (Redis lost part of it): resume to read it again');
  return stream.pipeThrough(
    new TransformStream<string, string>({
      transform(message, controller) {
        for (const frame of message.split(FRAME).slice(1)) {
          const at = frame.indexOf(FRAME_BODY);
          if (Number(frame.slice(0, at)) !== expected++ || over) throw broken();
          const body = frame.slice(at + 1);
          if (body === FRAME_END) over = true;
          else controller.enqueue(body);
        }
      },
      flush() {
        if (!over) throw broken();
      },
    }),
  );
}
