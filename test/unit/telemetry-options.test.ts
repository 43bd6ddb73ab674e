import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { checkTelemetry } from '../../src/telemetry/options.js';

// The client's `telemetry` option, checked before anything is sent: each bad value a ValidationError naming
// the field and what it must be; a good one handed back as it is.
const tracer = { getTracer: () => ({}) };
const meter = { getMeter: () => ({}) };

describe('checkTelemetry', () => {
  it.each([
    [null, 'telemetry', 'must be an object'],
    ['on', 'telemetry', 'must be an object'],
    [{ tracerProvider: null }, 'telemetry.tracerProvider', 'must be a TracerProvider (with getTracer)'],
    [
      { tracerProvider: { getTracer: 'x' } },
      'telemetry.tracerProvider',
      'must be a TracerProvider (with getTracer)',
    ],
    [{ tracerProvider: meter }, 'telemetry.tracerProvider', 'must be a TracerProvider (with getTracer)'],
    [{ meterProvider: tracer }, 'telemetry.meterProvider', 'must be a MeterProvider (with getMeter)'],
    [{ meterProvider: 1 }, 'telemetry.meterProvider', 'must be a MeterProvider (with getMeter)'],
    [{ propagate: 1 }, 'telemetry.propagate', 'must be a boolean'],
    [
      { captureContent: null },
      'telemetry.captureContent',
      'must be a boolean or { maxBytes } of 1 to 1048576',
    ],
    [{ captureContent: {} }, 'telemetry.captureContent', 'must be a boolean or { maxBytes } of 1 to 1048576'],
    [
      { captureContent: { maxBytes: 0 } },
      'telemetry.captureContent',
      'must be a boolean or { maxBytes } of 1 to 1048576',
    ],
    [
      { captureContent: { maxBytes: 1_048_577 } },
      'telemetry.captureContent',
      'must be a boolean or { maxBytes } of 1 to 1048576',
    ],
    [
      { captureContent: { maxBytes: '9' } },
      'telemetry.captureContent',
      'must be a boolean or { maxBytes } of 1 to 1048576',
    ],
  ])('%j: %s %s', (value, field, message) => {
    const error = (() => {
      try {
        checkTelemetry(value);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ field, message }]);
  });

  it.each([
    [{}],
    [{ tracerProvider: tracer, meterProvider: meter, propagate: false, captureContent: false }],
    [{ captureContent: true }],
    [{ captureContent: { maxBytes: 1 } }],
    [{ captureContent: { maxBytes: 1_048_576 } }],
  ])('%j is accepted as it is', (value) => {
    expect(checkTelemetry(value)).toBe(value);
  });

  it('no option is no telemetry option', () => {
    expect(checkTelemetry(undefined)).toBeUndefined();
  });
});
