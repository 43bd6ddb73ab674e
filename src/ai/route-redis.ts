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
  on(event: 'error', listener: (error: unknown) => void): unknown;
  get(key: string): Promise<unknown>;
  set(key: string, value: string, options: { PX?: number; EX?: number }): Promise<unknown>;
  del(key: string): Promise<unknown>;
  incr(key: string): Promise<number>;
  publish(channel: string, message: string): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  destroy?(): unknown;
  disconnect?(): Promise<unknown>;
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
  #clients: Promise<{ main: Redis; sub: Redis; context: ResumableContext }> | undefined;
  readonly #timers = new Set<ReturnType<typeof setInterval>>();
  /** The last connection error, for `close()`'s callers and tests; never thrown at the process. */
  lastError: unknown;

  constructor(options: RouteRedisOptions) {
    this.#options = options;
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
      await main.set(this.#key('record', chatId), JSON.stringify(record), { EX: RECORD_SECONDS });
    },
    delete: async (chatId) => {
      const { main } = await this.#connect();
      await main.del(this.#key('record', chatId));
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
      (timer as { unref?: () => void }).unref?.();
      this.#timers.add(timer);
      const stop = () => {
        clearInterval(timer);
        this.#timers.delete(timer);
        void main.del(lease).catch(() => {});
      };
      try {
        return await context.createNewResumableStream(streamId, () => watched(makeStream(), stop));
      } catch (error) {
        stop();
        throw new RedisUnavailableError(error);
      }
    },
    resumeExistingStream: async (streamId) => {
      try {
        const { main, context } = await this.#connect();
        // A lapsed lease: the process that read the turn is gone, and nobody would acknowledge.
        if ((await bounded(main.get(this.#key('lease', streamId)))) === null) return undefined;
        return await context.resumeExistingStream(streamId);
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
    if (!clients) return;
    const own = 'url' in this.#options ? [clients.main, clients.sub] : [clients.sub];
    for (const client of own) client.destroy?.();
  }

  #key(kind: string, id: string): string {
    return `${this.#prefix}:${kind}:${id}`;
  }

  #connect() {
    this.#clients ??= this.#create();
    const clients = this.#clients;
    // A first connection that failed is tried again by the next request.
    clients.catch(() => {
      if (this.#clients === clients) this.#clients = undefined;
    });
    return clients;
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
    const { createResumableStreamContext } = (await load('resumable-stream/generic')) as {
      createResumableStreamContext: (options: object) => ResumableContext;
    };
    const connecting = Promise.all(own.map((client) => client.connect()));
    connecting.catch(() => {});
    await within(connecting, CONNECT_WAIT_MS);
    const context = createResumableStreamContext({
      waitUntil: null,
      keyPrefix: this.#prefix,
      publisher: safePublisher(main),
      subscriber: safeSubscriber(sub),
    });
    return { main, sub, context };
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

/** `promise`, or a rejection once `ms` passed. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
