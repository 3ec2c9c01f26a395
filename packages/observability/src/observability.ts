import { createMetrics, type Metrics } from './metrics.ts';
import { noTracing, type Tracing } from './tracing.ts';
import { createOtelTracing } from './tracing-otel.ts';

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

/**
 * Metrics always (they cost a counter increment); traces only when an endpoint is configured
 * (OB-11): without one, tracing is `noTracing` and no SDK object is created.
 */
export function createObservability(options: ObservabilityOptions = {}): Observability {
  const tracing =
    options.otlpEndpoint === undefined || options.otlpEndpoint === ''
      ? noTracing
      : createOtelTracing({ endpoint: options.otlpEndpoint, serviceName: options.serviceName ?? 'latchkey' });
  return { metrics: createMetrics(), tracing };
}
