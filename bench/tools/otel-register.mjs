// Telemetry "on" for a benchmark process: NODE_OPTIONS="--import <this checkout>/bench/tools/otel-register.mjs".
// Registers the OpenTelemetry SDK (every span processed by a SimpleSpanProcessor into an exporter that drops
// it, a MeterProvider, AsyncLocalStorage context, the W3C propagator), resolved from this checkout.
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

const drop = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(
  new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: drop })] }),
);
metrics.setGlobalMeterProvider(new MeterProvider());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
