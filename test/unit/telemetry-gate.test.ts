import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_REDACTION } from '../../src/contract/redact.js';
import { ConvoError } from '../../src/errors/index.js';

// The gate every call passes (telemetry/gate.ts): on only with a provider registered or given, the recorder
// loaded once, a failed load tried again.
const KEY = Symbol.for('opentelemetry.js.api.1');
const global = globalThis as Record<symbol, unknown>;
const BASE = new URL('http://127.0.0.1/api/v1/');

afterEach(() => {
  delete global[KEY];
  vi.doUnmock('../../src/telemetry/otel.js');
  vi.resetModules();
});

describe('registered', () => {
  it.each([
    ['nothing registered', undefined, false],
    ['the API loaded, nothing registered', { version: '1.10.0' }, false],
    ['a tracer provider', { version: '1.10.0', trace: {} }, true],
    ['a meter provider', { version: '1.10.0', metrics: {} }, true],
    ['a propagator only', { version: '1.10.0', propagation: {} }, false],
  ])('%s: %s', async (_, api, expected) => {
    const { registered, TelemetryGate } = await import('../../src/telemetry/gate.js');
    if (api) global[KEY] = api;
    expect(registered()).toBe(expected);
    expect(new TelemetryGate(undefined, BASE, NO_REDACTION).on()).toBe(expected);
  });
});

describe('TelemetryGate', () => {
  it('on with a provider given, whatever is registered', async () => {
    const { TelemetryGate } = await import('../../src/telemetry/gate.js');
    const tracer = { getTracer: () => ({}) } as never;
    const meter = { getMeter: () => ({}) } as never;
    expect(new TelemetryGate({ tracerProvider: tracer }, BASE, NO_REDACTION).on()).toBe(true);
    expect(new TelemetryGate({ meterProvider: meter }, BASE, NO_REDACTION).on()).toBe(true);
    expect(new TelemetryGate({ propagate: true }, BASE, NO_REDACTION).on()).toBe(false);
  });

  it('loads the recorder once and hands the same one to every call', async () => {
    const { TelemetryGate } = await import('../../src/telemetry/gate.js');
    const gate = new TelemetryGate({ captureContent: { maxBytes: 5 } }, BASE, NO_REDACTION);
    const [a, b] = await Promise.all([gate.load(), gate.load()]);
    expect(a).toBe(b);
    expect(await gate.load()).toBe(a);
    expect(a.contentBytes).toBe(5);
  });

  it('a failed load is a ConvoError that says so; the next call tries again', async () => {
    let fail = true;
    vi.doMock('../../src/telemetry/otel.js', async (original) => {
      if (fail) throw new Error('disk gone');
      return original();
    });
    const { TelemetryGate } = await import('../../src/telemetry/gate.js');
    const gate = new TelemetryGate(undefined, BASE, NO_REDACTION);
    const error = await gate.load().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConvoError);
    expect((error as Error).message).toMatch(/^could not load the telemetry: ./);
    expect((error as Error).cause).toBeInstanceOf(Error);
    fail = false;
    expect(await gate.load()).toBeDefined();
  });
});
