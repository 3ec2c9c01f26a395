import { setTimeout as delay } from 'node:timers/promises';
import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import { NO_CHILD_SPAN, type ChildSpan, type RequestSpan, type Tracing } from './tracing.ts';

/**
 * The longest close() waits for the last spans to be exported: well inside the 5 s that the
 * graceful shutdown leaves for closing resources after the requests have drained.
 */
const CLOSE_TIMEOUT_MS = 3_000;

/** Our own attributes, beside the semantic conventions' (OB-13). */
export const ATTR_LATCHKEY_REQUEST_ID = 'latchkey.request_id';
export const ATTR_LATCHKEY_SERVER = 'latchkey.server';
export const ATTR_LATCHKEY_ABORTED = 'latchkey.aborted';

/** W3C Trace Context (`traceparent`, `tracestate`): what the BFF sends and every server reads (OB-15). */
const propagator = new W3CTraceContextPropagator();

let contextManagerSet = false;

/**
 * A span is "active" for the code a request runs through an AsyncLocalStorage context manager.
 * The OpenTelemetry API keeps that one per process (unlike the tracer providers, one per
 * Observability), so it is set once; one already set (an APM agent's) is kept.
 */
function useAsyncContext(): void {
  if (contextManagerSet) return;
  contextManagerSet = true;
  const manager = new AsyncLocalStorageContextManager().enable();
  if (!context.setGlobalContextManager(manager)) manager.disable();
}

/** A failure's class or code, never its message (which may quote a value). */
function errorType(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? code : error.name;
  }
  return '_OTHER';
}

function childSpan(span: Span, parent: Context): ChildSpan {
  return {
    inject(headers) {
      propagator.inject(trace.setSpan(parent, span), headers, defaultTextMapSetter);
    },
    set(name, value) {
      span.setAttribute(name, value);
    },
    rename(name) {
      span.updateName(name);
    },
    end(error) {
      if (error !== undefined) {
        span.setAttribute(ATTR_ERROR_TYPE, errorType(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}

export interface OtelTracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  /** The resource's `service.name`. */
  serviceName: string;
}

/**
 * OB-11: tracing on, with the official SDK: a tracer provider of its own (nothing registered
 * globally but the context manager, so two test systems in one process never share spans), a
 * batch processor and the OTLP/HTTP JSON exporter. The exporter reads the other OTEL_EXPORTER_OTLP_*
 * settings (headers, timeout, compression) and the provider OTEL_TRACES_SAMPLER from the environment.
 */
export function createOtelTracing(options: OtelTracingOptions): Tracing {
  useAsyncContext();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` })),
    ],
  });
  const tracer = provider.getTracer('latchkey');
  let closing: Promise<void> | undefined;

  return {
    enabled: true,
    startRequest(req, server, next, requestId): RequestSpan {
      // OB-12: an incoming traceparent is continued; without one (or with a malformed one) a trace starts here.
      const parent = propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
      const method = req.method ?? 'GET';
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      // OB-14: the path only; the query string carries state, codes and challenges.
      const attributes: Attributes = {
        [ATTR_HTTP_REQUEST_METHOD]: method,
        [ATTR_URL_PATH]: (query === -1 ? url : url.slice(0, query)).slice(0, 512),
        [ATTR_LATCHKEY_SERVER]: server,
      };
      if (requestId !== undefined) attributes[ATTR_LATCHKEY_REQUEST_ID] = requestId;
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes }, parent);
      context.with(trace.setSpan(parent, span), next);
      return {
        end(status, route) {
          // The route template is known only once a router matched; never the path (it may hold an id).
          if (route !== 'unmatched') {
            span.updateName(`${method} ${route}`);
            span.setAttribute(ATTR_HTTP_ROUTE, route);
          }
          if (status === undefined) span.setAttribute(ATTR_LATCHKEY_ABORTED, true);
          else {
            span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
            if (status >= 500) {
              // OB-18: a 5xx marks the request's span failed.
              span.setAttribute(ATTR_ERROR_TYPE, String(status));
              span.setStatus({ code: SpanStatusCode.ERROR });
            }
          }
          span.end();
        },
      };
    },
    startSpan(name, kind, attributes) {
      const parent = context.active();
      // Outside a request (a background flush) nothing is recorded: no trace of its own.
      if (trace.getSpan(parent) === undefined) return NO_CHILD_SPAN;
      const span = tracer.startSpan(
        name,
        { kind: kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL, attributes },
        parent,
      );
      return childSpan(span, parent);
    },
    inject(headers) {
      propagator.inject(context.active(), headers, defaultTextMapSetter);
    },
    close() {
      // Flushes the batch, then stops the exporter; a second call waits for the first. A
      // collector that is down or slow costs the spans still buffered, never the shutdown: the
      // exporter retries for up to OTEL_EXPORTER_OTLP_TIMEOUT, this waits CLOSE_TIMEOUT_MS at most.
      closing ??= Promise.race([
        provider.shutdown().catch(() => undefined),
        delay(CLOSE_TIMEOUT_MS, undefined, { ref: false }),
      ]);
      return closing;
    },
  };
}
