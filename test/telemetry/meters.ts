import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';

/** One data point of a metric: its attributes and value (a histogram's `{ count, sum, ... }`, a counter's number). */
export interface Point {
  attributes: Record<string, unknown>;
  value: unknown;
}

/**
 * A meter provider of its own for one client (`telemetry.meterProvider`), read through the SDK's in-memory
 * exporter: what one test recorded, whatever other tests did.
 */
export function freshMeters() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 2 ** 31 - 1 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const collect = async () => {
    await reader.forceFlush();
    return (
      exporter
        .getMetrics()
        .at(-1)
        ?.scopeMetrics.flatMap((scope) => scope.metrics) ?? []
    );
  };
  return {
    meterProvider,
    /** Every data point of metric `name`. */
    async points(name: string): Promise<Point[]> {
      return (await collect())
        .filter((metric) => metric.descriptor.name === name)
        .flatMap((metric) => metric.dataPoints.map((p) => ({ attributes: p.attributes, value: p.value })));
    },
    /** Every metric as exported (names, descriptors, attributes, values), for the secrets check. */
    all: collect,
    shutdown: () => meterProvider.shutdown(),
  };
}
