import { MAX_RECORDS, type TurnRecord, type TurnRecordStore } from './records.js';

/**
 * Where a chat route keeps the last turn of each chat across processes (Redis, a database), so that any of
 * them can read a turn again by its key: `createChatRoute`'s `redis` option makes one; `records` takes yours.
 */
export interface RouteRecordStore {
  /** The chat's last turn, if known. */
  get(chatId: string): RouteRecord | undefined | Promise<RouteRecord | undefined>;
  /** Keeps the chat's last turn. */
  set(chatId: string, record: RouteRecord): unknown;
  /** Forgets the chat's last turn: its whole answer was delivered, or it was stopped. */
  delete?(chatId: string): unknown;
}

/** The last turn of a chat, as a route keeps it: `ended` once the turn has ended on the service. */
export interface RouteRecord extends TurnRecord {
  /** The turn has ended (its terminal event was read): once its answer is delivered, nothing will read it again. */
  ended?: boolean | undefined;
}

/**
 * The one record store of a chat route: each chat's last turn in this process (the least recently used of
 * more than `MAX_RECORDS` forgotten), written through to `shared` when there is one, which is then the
 * authority (another process may have sent a later turn). `transport` is the view `ConvoChatTransport`
 * reads and writes: its `delete` says the turn ended (the transport's end of a turn), which marks the
 * record `ended` rather than forgetting it: a page that reloaded before the end still reads it by key.
 */
export class RouteRecords {
  readonly #local = new Map<string, RouteRecord>();
  readonly #shared: RouteRecordStore | undefined;
  /** Writes to `shared` on their way, by chat: a read waits for them. */
  readonly #writes = new Map<string, Promise<unknown>>();
  /** The view the transport uses: synchronous, in this process, written through. */
  readonly transport: TurnRecordStore;

  /** Whether this process reads the chat's turn `key` now: only such a record is trusted without `shared`. */
  readonly #reads: (chatId: string, key: string) => boolean;

  /**
   * `reads`: whether this process reads a turn now. While `shared` fails, a record of this process's own
   * answers only for a turn it reads: any other may be stale (another process ended or stopped it since).
   */
  constructor(
    shared?: RouteRecordStore | undefined,
    reads: (chatId: string, key: string) => boolean = () => true,
  ) {
    this.#shared = shared;
    this.#reads = reads;
    this.transport = {
      get: (chatId) => this.#touch(chatId),
      set: (chatId, record) => this.keep(chatId, record),
      delete: (chatId) => {
        const record = this.#local.get(chatId);
        if (record) this.keep(chatId, { ...record, ended: true });
      },
    };
  }

  /** Keeps `record` as the chat's last turn, here and (on its way) in the shared store. */
  keep(chatId: string, record: RouteRecord): void {
    this.#put(chatId, record);
    this.#write(chatId, (shared) => shared.set(chatId, record));
  }

  /** The chat's last turn: the shared store's (kept here too); this process's without one, or while it fails. */
  async load(chatId: string): Promise<RouteRecord | undefined> {
    await this.settled(chatId);
    if (!this.#shared) return this.#touch(chatId);
    try {
      const shared = await this.#shared.get(chatId);
      if (shared) {
        this.#put(chatId, shared);
        return shared;
      }
      this.#local.delete(chatId);
      return undefined;
    } catch {
      // The shared store is away: what this process knows of a turn it reads now is still true.
      const local = this.#touch(chatId);
      return local && this.#reads(chatId, local.idempotencyKey) ? local : undefined;
    }
  }

  /** Forgets the chat's turn `key` (no other): here and in the shared store. */
  async forget(chatId: string, key: string): Promise<void> {
    await this.#forget(chatId, key, await this.load(chatId));
  }

  /** The turn `key` was delivered to its end: forgotten when it has ended (a turn paused at an approval goes on). */
  async delivered(chatId: string, key: string): Promise<void> {
    const record = await this.load(chatId);
    if (record?.ended) await this.#forget(chatId, key, record);
  }

  /** Resolves once the writes of the chat's records made so far have landed (or failed). */
  async settled(chatId: string): Promise<void> {
    await this.#writes.get(chatId);
  }

  /** Forgets `record`, the chat's turn as just loaded, when it is the turn `key`. */
  async #forget(chatId: string, key: string, record: RouteRecord | undefined): Promise<void> {
    if (record?.idempotencyKey !== key) return;
    this.#local.delete(chatId);
    // Stryker disable next-line OptionalChaining: a store without `delete` then throws a TypeError, which the chain drops as it drops any failed write
    this.#write(chatId, (shared) => shared.delete?.(chatId));
    await this.settled(chatId);
  }

  /** The chat's record, made the most recently used here. */
  #touch(chatId: string): RouteRecord | undefined {
    const record = this.#local.get(chatId);
    if (record) this.#put(chatId, record);
    return record;
  }

  /** Keeps `record` here as the most recently used, forgetting the least recently used past `MAX_RECORDS`. */
  #put(chatId: string, record: RouteRecord): void {
    this.#local.delete(chatId);
    this.#local.set(chatId, record);
    if (this.#local.size > MAX_RECORDS) this.#local.delete(this.#local.keys().next().value as string);
  }

  /** Chains `write` after the chat's earlier writes, so they land in order; a failure is left to `load`'s fallback. */
  #write(chatId: string, write: (shared: RouteRecordStore) => unknown): void {
    const shared = this.#shared;
    // Stryker disable next-line ConditionalExpression: without a shared store there is nothing to write (and a read awaits a settled promise either way)
    if (!shared) return;
    const before = this.#writes.get(chatId) ?? Promise.resolve();
    const after = before.then(() => write(shared)).catch(() => {});
    this.#writes.set(chatId, after);
    // Forgetting a settled write only frees memory: a read awaits a settled promise either way. (Into `true`,
    // the condition would forget a newer write on its way, which the tests see.)
    // Stryker disable next-line BlockStatement,ArrowFunction
    void after.then(() => {
      // Stryker disable next-line ConditionalExpression,CallExpression: see above
      if (this.#writes.get(chatId) === after) this.#writes.delete(chatId);
    });
  }
}
