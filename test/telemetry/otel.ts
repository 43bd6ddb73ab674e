import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import {
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { afterAll, beforeEach } from 'vitest';

/**
 * The real OpenTelemetry SDK registered globally for the tests of a file (spans in memory, W3C trace context
 * and baggage propagation, async context; a meter provider, whose metrics each test reads from a provider of
 * its own, `freshMeters`), unregistered after them so that no other file sees a provider.
 */
export function useOtel() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: spans })],
  });
  const meterProvider = new MeterProvider();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  beforeEach(() => {
    spans.reset();
  });
  afterAll(async () => {
    await meterProvider.shutdown();
    await tracerProvider.shutdown();
    trace.disable();
    metrics.disable();
    propagation.disable();
    context.disable();
  });
  return {
    tracerProvider,
    /** Forgets the spans finished so far. */
    reset: () => spans.reset(),
    /** The finished spans, oldest first. */
    finished: (): ReadableSpan[] => spans.getFinishedSpans(),
    /** The finished span named `name` (the only one, else the test fails). */
    span(name: string): ReadableSpan {
      const found = spans.getFinishedSpans().filter((span) => span.name === name);
      if (found.length !== 1) throw new Error(`${found.length} finished spans named ${name}`);
      return found[0] as ReadableSpan;
    },
  };
}
