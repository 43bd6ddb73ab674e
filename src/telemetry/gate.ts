import type { Redactor } from '../contract/redact.js';
import { ConvoError } from '../errors/index.js';
import type { TelemetryOptions } from './options.js';
import type { Telemetry } from './otel.js';

/**
 * Where `@opentelemetry/api` 1.x keeps what is registered with it (`trace`, `metrics`, `propagation`,
 * `context`), shared by every copy of the API in the process: its `internal/global-utils`.
 */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');

/** Whether a tracer or meter provider is registered with `@opentelemetry/api`, read without loading it. */
export function registered(): boolean {
  const api = (globalThis as Record<symbol, { trace?: unknown; metrics?: unknown } | undefined>)[API_GLOBAL];
  return api !== undefined && (api.trace !== undefined || api.metrics !== undefined);
}

/**
 * A client's telemetry, free when unused: `on()` is one branch on the hot paths, true only when a provider
 * is registered or given; the code that records (`otel.ts`, with `@opentelemetry/api`) is loaded by the
 * first call that records, as ky is by the first request.
 */
export class TelemetryGate {
  readonly #options: TelemetryOptions | undefined;
  readonly #given: boolean;
  readonly #settings: { base: URL; redact: Redactor };
  #loaded: Telemetry | undefined;
  #loading: Promise<Telemetry> | undefined;

  constructor(options: TelemetryOptions | undefined, base: URL, redact: Redactor) {
    this.#options = options;
    this.#given = options?.tracerProvider !== undefined || options?.meterProvider !== undefined;
    this.#settings = { base, redact };
  }

  /** Whether calls are recorded now: a provider was given, or one is registered. */
  on(): boolean {
    return this.#given || registered();
  }

  /** The recorder, loaded once; a failed load is tried again by the next call. */
  load(): Promise<Telemetry> {
    if (this.#loaded) return Promise.resolve(this.#loaded);
    // The recorder imports `@opentelemetry/api`: Node loads the API only when something records.
    this.#loading ??= import('./otel.js').then(
      ({ Telemetry }) => {
        this.#loaded = new Telemetry(this.#options, this.#settings.base, this.#settings.redact);
        return this.#loaded;
      },
      (error: unknown) => {
        this.#loading = undefined;
        const reason = error instanceof Error ? error.message : String(error);
        throw new ConvoError(`could not load the telemetry: ${reason}`, { cause: error });
      },
    );
    return this.#loading;
  }
}
