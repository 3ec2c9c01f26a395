export { createMetrics } from './metrics.ts';
export type { Metrics, ServerName, TokenCheckOutcome } from './metrics.ts';
export { createObservability } from './observability.ts';
export type { Observability, ObservabilityOptions } from './observability.ts';
export { noTracing } from './tracing.ts';
export type { RequestSpan, Tracing } from './tracing.ts';
