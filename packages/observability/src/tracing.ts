import type { IncomingMessage } from 'node:http';

/** The server span of one request; ended once its response is finished or abandoned. */
export interface RequestSpan {
  end(status: number | undefined, route: string): void;
}

/**
 * OB-*: OpenTelemetry traces. `enabled` is false unless OTEL_EXPORTER_OTLP_ENDPOINT is set, and
 * then every method is a no-op that allocates nothing per request.
 */
export interface Tracing {
  readonly enabled: boolean;
  /**
   * Starts the server span of `req` (continuing an incoming `traceparent`), named by `server`,
   * and runs `next` inside it, so database and Redis spans and outgoing calls are its children.
   */
  startRequest(req: IncomingMessage, server: string, next: () => void): RequestSpan;
  /** Adds `traceparent` (and `tracestate`) of the current span to an outgoing request's headers. */
  inject(headers: Record<string, string>): void;
  /** Exports the spans still buffered and stops the exporter. */
  close(): Promise<void>;
}

const NO_SPAN: RequestSpan = { end() {} };

/** Tracing off: nothing is recorded. */
export const noTracing: Tracing = {
  enabled: false,
  startRequest(_req, _server, next) {
    next();
    return NO_SPAN;
  },
  inject() {},
  close: () => Promise.resolve(),
};
