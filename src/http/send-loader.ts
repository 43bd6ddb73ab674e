import { ConvoError } from '../errors/index.js';
import type { TransportSettings } from './call.js';
import { refused, threw } from './hooks.js';
import type { SendOnce } from './send-once.js';

/** `send-once.ts` as its `import()` hands it over. */
type SendOnceModule = typeof import('./send-once.js');

/**
 * The client's `SendOnce`, built once, with the first request: a client without a base URL or token fails
 * then, before sending. `load` is the transport's `import('./send-once.js')` (the Node builds make that file
 * one of their own, loaded with ky by this call); an import that failed is tried again by the next call.
 */
export class SendLoader {
  readonly #settings: TransportSettings;
  readonly #load: () => Promise<SendOnceModule>;
  #send: SendOnce | undefined;

  constructor(settings: TransportSettings, load: () => Promise<SendOnceModule>) {
    this.#settings = settings;
    this.#load = load;
  }

  /** The `SendOnce`, once loaded: the hot path reads it without waiting. */
  get ready(): SendOnce | undefined {
    return this.#send;
  }

  /** Loads `send-once.ts` and builds the client's `SendOnce`; the SDK failing to load ky is a `ConvoError`. */
  async load(): Promise<SendOnce> {
    const settings = this.#settings;
    if (settings.unset) throw settings.unset;
    const module = await this.#load().catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConvoError(`could not load ky: ${reason}`, { cause: error });
    });
    this.#send ??= module.sendOnce(settings, { threw, refused });
    return this.#send;
  }
}
