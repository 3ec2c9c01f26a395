import type { IncomingMessage } from 'node:http';

/** The server span of one request; ended once its response is finished or abandoned. */
export interface RequestSpan {
  end(status: number | undefined, route: string): void;
}

/** Span attribute values: never a token, a cookie, a secret or a query's parameter values (OB-14). */
export type SpanAttributes = Record<string, string | number | boolean>;

/** A span inside the current request's: a database query, an outgoing call. */
export interface ChildSpan {
  /** Adds this span's `traceparent` to an outgoing request's headers, so the callee continues the trace. */
  inject(headers: Record<string, string>): void;
  /** Adds an attribute known only once the work is under way. */
  set(name: string, value: string | number | boolean): void;
  /** Renames the span, when its name is known only once the work is under way. */
  rename(name: string): void;
  /** Ends the span; with an error it is marked failed, naming the error's class or code, never its message. */
  end(error?: unknown): void;
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
   * `requestId` (the X-Request-Id assignRequestId gave it) is recorded as `latchkey.request_id`.
   */
  startRequest(req: IncomingMessage, server: string, next: () => void, requestId?: string): RequestSpan;
  /**
   * Starts a child of the active span: `client` for a call to another service or the database,
   * `internal` for work inside the process. Outside a request (a background flush) there is no
   * parent and nothing is recorded.
   */
  startSpan(name: string, kind: 'client' | 'internal', attributes: SpanAttributes): ChildSpan;
  /** Adds `traceparent` (and `tracestate`) of the current span to an outgoing request's headers. */
  inject(headers: Record<string, string>): void;
  /** Exports the spans still buffered and stops the exporter. */
  close(): Promise<void>;
}

const NO_SPAN: RequestSpan = { end() {} };

/** The span of work that is not traced. */
export const NO_CHILD_SPAN: ChildSpan = { inject() {}, set() {}, rename() {}, end() {} };

/** Tracing off: nothing is recorded. */
export const noTracing: Tracing = {
  enabled: false,
  startRequest(_req, _server, next) {
    next();
    return NO_SPAN;
  },
  startSpan: () => NO_CHILD_SPAN,
  inject() {},
  close: () => Promise.resolve(),
};
