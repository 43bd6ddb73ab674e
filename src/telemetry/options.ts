import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import { ValidationError } from '../errors/index.js';

/** Largest `captureContent.maxBytes`: 1 MiB per attribute. */
const MAX_CONTENT_BYTES = 1_048_576;

/**
 * OpenTelemetry traces and metrics of the client's calls (docs/observability.md). With no provider
 * registered with `@opentelemetry/api` and none given here, nothing is recorded and nothing is loaded.
 */
export interface TelemetryOptions {
  /** The tracer provider of this client's spans; default the one registered with `@opentelemetry/api`. */
  tracerProvider?: TracerProvider | undefined;
  /** The meter provider of this client's metrics; default the one registered with `@opentelemetry/api`. */
  meterProvider?: MeterProvider | undefined;
  /**
   * Send the W3C `traceparent` (and `tracestate`, `baggage` where the registered propagator writes them) of
   * each call's span with its request, to the client's `baseUrl` only (default true).
   */
  propagate?: boolean | undefined;
  /**
   * Record prompts and answers (`gen_ai.input.messages`, `gen_ai.output.messages`): `true` keeps each up to
   * 8,192 UTF-8 bytes, `{ maxBytes }` (1 to 1,048,576) as many; a value cut short ends in `…` and its span
   * says `convo.content.truncated`. Default false: no content is recorded.
   */
  captureContent?: boolean | { maxBytes: number } | undefined;
}

/** The client's `telemetry` option, checked before anything is sent: a bad one is a `ValidationError`. */
export function checkTelemetry(options: unknown): TelemetryOptions | undefined {
  if (options === undefined) return undefined;
  if (typeof options !== 'object' || options === null) throw bad('telemetry', 'must be an object');
  const { tracerProvider, meterProvider, propagate, captureContent } = options as Record<string, unknown>;
  if (tracerProvider !== undefined && !hasMethod(tracerProvider, 'getTracer'))
    throw bad('telemetry.tracerProvider', 'must be a TracerProvider (with getTracer)');
  if (meterProvider !== undefined && !hasMethod(meterProvider, 'getMeter'))
    throw bad('telemetry.meterProvider', 'must be a MeterProvider (with getMeter)');
  if (propagate !== undefined && typeof propagate !== 'boolean')
    throw bad('telemetry.propagate', 'must be a boolean');
  if (captureContent !== undefined && typeof captureContent !== 'boolean') {
    const max = (captureContent as { maxBytes?: unknown } | null)?.maxBytes;
    if (!Number.isInteger(max) || (max as number) < 1 || (max as number) > MAX_CONTENT_BYTES)
      throw bad('telemetry.captureContent', `must be a boolean or { maxBytes } of 1 to ${MAX_CONTENT_BYTES}`);
  }
  return options as TelemetryOptions;
}

function hasMethod(value: unknown, name: string): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)[name] === 'function'
  );
}

function bad(field: string, message: string): ValidationError {
  return new ValidationError([{ field, message }]);
}
