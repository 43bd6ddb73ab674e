// An in-memory stand-in for the node-redis clients a chat route uses (`createChatRoute({ redis: { client } })`),
// on which `resumable-stream` runs as on Redis: keys, pub/sub delivered on a later macrotask, and faults.

/** What the fake clients of one Redis share: keys, channels, and the faults the test sets. */
export class FakeNet {
  readonly data = new Map<string, string>();
  readonly sets: Array<[string, string, unknown]> = [];
  readonly channels = new Map<string, Map<FakeRedis, (message: string) => void>>();
  /** Commands never answer. */
  hang = false;
  /** Commands fail at once. */
  down = false;
  /** A published message to lose, as pub/sub does while Redis is away. */
  drop: (channel: string, message: string) => boolean = () => false;

  async command<T>(run: () => T): Promise<T> {
    if (this.hang) return new Promise<T>(() => {});
    if (this.down) throw new Error('Redis is down');
    return run();
  }
}

/** The part of a node-redis client the route uses, on a `FakeNet`. */
export class FakeRedis {
  isReady = false;
  destroyed = false;
  connectFails: unknown;
  readonly #listeners = { error: [] as Array<(error?: unknown) => void>, ready: [] as Array<() => void> };
  readonly duplicates: FakeRedis[] = [];
  constructor(readonly net: FakeNet) {}
  duplicate(): FakeRedis {
    const copy = new FakeRedis(this.net);
    this.duplicates.push(copy);
    return copy;
  }
  on(event: 'error' | 'ready', listener: (error?: unknown) => void): this {
    this.#listeners[event].push(listener);
    return this;
  }
  emit(event: 'error' | 'ready', error?: unknown): void {
    for (const listener of this.#listeners[event]) listener(error);
  }
  async connect(): Promise<void> {
    if (this.connectFails !== undefined) throw this.connectFails;
    this.isReady = true;
    this.emit('ready');
  }
  get(key: string) {
    return this.net.command(() => this.net.data.get(key) ?? null);
  }
  set(key: string, value: string, options: unknown) {
    return this.net.command(() => {
      this.net.data.set(key, value);
      this.net.sets.push([key, value, options]);
      return 'OK';
    });
  }
  del(key: string) {
    return this.net.command(() => (this.net.data.delete(key) ? 1 : 0));
  }
  incr(key: string) {
    return this.net.command(() => {
      const next = Number(this.net.data.get(key) ?? 0) + 1;
      if (Number.isNaN(next)) throw new Error('ERR value is not an integer');
      this.net.data.set(key, String(next));
      return next;
    });
  }
  publish(channel: string, message: string) {
    return this.net.command(() => {
      if (this.net.drop(channel, message)) return 0;
      const listeners = [...(this.net.channels.get(channel)?.values() ?? [])];
      setImmediate(() => {
        for (const listener of listeners) listener(message);
      });
      return listeners.length;
    });
  }
  subscribe(channel: string, listener: (message: string) => void) {
    return this.net.command(() => {
      const listeners = this.net.channels.get(channel) ?? new Map();
      listeners.set(this, listener);
      this.net.channels.set(channel, listeners);
    });
  }
  unsubscribe(channel: string) {
    return this.net.command(() => {
      this.net.channels.get(channel)?.delete(this);
    });
  }
  destroy(): void {
    this.destroyed = true;
    this.isReady = false;
  }
}
