// OpenTelemetry traces (issue 34): the three servers export their spans over OTLP/HTTP JSON to a
// test receiver on loopback. A signed-in browser's POST /bff/graphql is one trace: the BFF's
// server span, its client call, the API's server span continuing it and the API's database
// spans; the sign-in's token exchange continues the BFF's trace at the authorization server.
// Every received byte is searched for the session's secrets. Tracing off creates no exporter.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { createObservability, noTracing, traceQueries } from '@latchkey/observability';
import { anOutage } from '../support/faults.ts';
import { makeUser } from '../support/fixtures.ts';
import { closeServer, listenOnLoopback } from '../support/loopback.ts';
import { perFile } from '../support/per-file.ts';
import { PortalBrowser, readSessionTokens, sessionIdOf, startPortalSystem } from '../support/portal-system.ts';

/** OTLP's SpanKind numbers. */
const SERVER = 2;
const CLIENT = 3;
/** OTLP's status code for a failed span. */
const STATUS_ERROR = 2;

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}

interface KeyValue {
  key: string;
  value: AnyValue;
}

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean | undefined>;
  status: number | undefined;
}

function valueOf(value: AnyValue): string | number | boolean | undefined {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.boolValue ?? value.doubleValue;
}

function attributesOf(list: KeyValue[] | undefined): ReceivedSpan['attributes'] {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
}

/** The spans of one OTLP/HTTP JSON export request (ExportTraceServiceRequest). */
function spansOf(body: string): ReceivedSpan[] {
  const request = JSON.parse(body) as {
    resourceSpans?: {
      resource?: { attributes?: KeyValue[] };
      scopeSpans?: {
        spans?: {
          traceId: string;
          spanId: string;
          parentSpanId?: string;
          name: string;
          kind: number;
          attributes?: KeyValue[];
          status?: { code?: number };
        }[];
      }[];
    }[];
  };
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        service,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId === '' ? undefined : span.parentSpanId,
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
        status: span.status?.code,
      })),
    );
  });
}

/** A collector stand-in: node:http on loopback, keeping every body POSTed to /v1/traces. */
async function startOtlpReceiver(): Promise<{
  url: string;
  bodies: string[];
  paths: string[];
  close(): Promise<void>;
}> {
  const bodies: string[] = [];
  const paths: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      bodies.push((req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, bodies, paths, close: () => closeServer(server) };
}

/**
 * One signed-in browser's sign-in and POST /bff/graphql, on a portal system exporting to the
 * receiver; the system is closed (its spans flushed) before the tests read them.
 */
const { run } = perFile(async () => {
  const receiver = await startOtlpReceiver();
  try {
    const system = await startPortalSystem({}, { otlpEndpoint: receiver.url });
    let secrets: string[];
    let graphql: { status: number; requestId: string | null; body: unknown };
    let engine: string;
    let outage: { status: number; requestId: string | null };
    try {
      const user = await makeUser(system, 'Tracy Tracer');
      const browser = new PortalBrowser(system);
      const signedIn = await browser.signIn(user);
      expect(signedIn.status).toBe(302);
      const response = await browser.request('/bff/graphql', { json: { query: '{ profile { name } }' } });
      graphql = { status: response.status, requestId: response.headers.get('x-request-id'), body: response.body };
      const tokens = await readSessionTokens(system, browser);
      // The database down under the API's token lookup: a 503, straight from a bearer client.
      system.faults.failEveryQuery(anOutage);
      try {
        const failed = await fetch(`${system.apiUrl}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tokens!.accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ profile { name } }' }),
        });
        await failed.arrayBuffer();
        outage = { status: failed.status, requestId: failed.headers.get('x-request-id') };
      } finally {
        system.faults.clear();
      }
      const cookie = browser.sessionCookie()!;
      const digests = await system.db.selectFrom('access_tokens').select('token_hash').execute();
      engine = system.engine;
      secrets = [
        tokens!.accessToken,
        tokens!.refreshToken,
        cookie,
        decodeURIComponent(cookie),
        sessionIdOf(cookie),
        system.config.portal.clientSecret,
        user.password,
        ...digests.map((row) => String(row.token_hash)),
      ];
    } finally {
      await system.close();
    }
    const spans = receiver.bodies.flatMap(spansOf);
    return {
      run: {
        spans,
        raw: receiver.bodies.join('\n'),
        paths: receiver.paths,
        secrets,
        graphql,
        engine,
        outage,
      },
    };
  } finally {
    await receiver.close();
  }
});

const named = (service: string, name: string) => run.spans.filter((s) => s.service === service && s.name === name);

/** The BFF's server span of the browser's POST /bff/graphql (the only one). */
function bffGraphqlSpan(): ReceivedSpan {
  const spans = named('latchkey-bff', 'POST /bff/graphql');
  expect(spans, JSON.stringify(run.spans.map((s) => `${s.service} ${s.name}`))).toHaveLength(1);
  return spans[0]!;
}

function apiGraphqlSpan(): ReceivedSpan {
  const bff = bffGraphqlSpan();
  const span = named('latchkey-api', 'POST /graphql').find((s) => s.traceId === bff.traceId);
  expect(span).toBeDefined();
  return span!;
}

describe('OpenTelemetry traces over OTLP/HTTP', () => {
  it('OB-11 tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT): noTracing, no exporter, the database untouched', () => {
    expect(createObservability().tracing).toBe(noTracing);
    expect(createObservability({ otlpEndpoint: undefined, serviceName: 'latchkey-api' }).tracing).toBe(noTracing);
    expect(noTracing.enabled).toBe(false);
    let ran = false;
    noTracing.startRequest({} as IncomingMessage, 'api', () => (ran = true)).end(200, '/graphql');
    expect(ran).toBe(true);
    // No query plugin either: the apps get the very same database object.
    const db = {} as Kysely<unknown>;
    expect(traceQueries(db, noTracing, 'sqlite')).toBe(db);
  });

  it('OB-11 tracing on: OTLP/HTTP JSON POSTs to <endpoint>/v1/traces, one service.name per server', () => {
    expect(run.graphql.status).toBe(200);
    expect(run.paths.length).toBeGreaterThan(0);
    for (const path of run.paths) expect(path).toBe('POST /v1/traces application/json');
    expect(new Set(run.spans.map((s) => s.service))).toEqual(
      new Set(['latchkey-auth', 'latchkey-api', 'latchkey-bff']),
    );
  });

  it('OB-12 the BFF server span: named by method and route template, with method, route, path and status', () => {
    const span = bffGraphqlSpan();
    expect(span.kind).toBe(SERVER);
    expect(span.parentSpanId).toBeUndefined();
    expect(span.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/bff/graphql',
      'url.path': '/bff/graphql',
      'http.response.status_code': 200,
      'latchkey.server': 'bff',
    });
    expect(span.status).not.toBe(STATUS_ERROR);
  });

  it('OB-13 the request id attribute equals the X-Request-Id the browser received', () => {
    expect(run.graphql.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(bffGraphqlSpan().attributes['latchkey.request_id']).toBe(run.graphql.requestId);
    const failed = named('latchkey-api', 'POST /graphql').find(
      (s) => s.attributes['http.response.status_code'] === 503,
    );
    expect(failed!.attributes['latchkey.request_id']).toBe(run.outage.requestId);
    // Every server span names its own request's id.
    for (const span of run.spans.filter((s) => s.kind === SERVER))
      expect(span.attributes['latchkey.request_id']).toEqual(expect.any(String));
  });

  it('OB-15 BFF → API: the API span is in the BFF trace, child of the BFF client call under the BFF span', () => {
    const bff = bffGraphqlSpan();
    const api = apiGraphqlSpan();
    expect(api.kind).toBe(SERVER);
    expect(api.attributes).toMatchObject({ 'http.route': '/graphql', 'http.response.status_code': 200 });
    const call = run.spans.find((s) => s.spanId === api.parentSpanId);
    expect(call).toMatchObject({ service: 'latchkey-bff', kind: CLIENT, name: 'POST', parentSpanId: bff.spanId });
    expect(call!.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 200 });
    expect(call!.attributes['url.full']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
  });

  it('OB-16 database spans under the API span: engine, operation and SQL with placeholders', () => {
    const api = apiGraphqlSpan();
    const queries = run.spans.filter((s) => s.parentSpanId === api.spanId && s.name.startsWith('db '));
    // The bearer token lookup (a cached CompiledQuery run with executeQuery) is one of them.
    const lookup = queries.find((s) => String(s.attributes['db.query.text']).includes('token_hash'));
    expect(lookup, JSON.stringify(queries)).toBeDefined();
    expect(lookup).toMatchObject({ service: 'latchkey-api', kind: CLIENT, name: 'db select' });
    expect(lookup!.attributes).toMatchObject({
      'db.system.name': run.engine === 'postgres' ? 'postgresql' : 'sqlite',
      'db.operation.name': 'select',
    });
    expect(lookup!.attributes['db.query.text']).toMatch(run.engine === 'postgres' ? /= \$1/ : /= \?/);
    // Kysely-built queries too: the sign-in's at the authorization server, under its request spans.
    const auth = run.spans.filter((s) => s.service === 'latchkey-auth' && s.name.startsWith('db '));
    expect(auth.map((s) => s.name)).toEqual(expect.arrayContaining(['db select', 'db insert']));
    const serverSpans = new Set(run.spans.filter((s) => s.kind === SERVER).map((s) => s.spanId));
    for (const span of auth) expect(serverSpans.has(span.parentSpanId!)).toBe(true);
  });

  it('OB-17 BFF → authorization server: the code exchange continues the BFF callback trace', () => {
    const callback = named('latchkey-bff', 'GET /bff/callback')[0];
    expect(callback).toBeDefined();
    const token = named('latchkey-auth', 'POST /oauth/token').find((s) => s.traceId === callback!.traceId);
    expect(token).toBeDefined();
    const call = run.spans.find((s) => s.spanId === token!.parentSpanId);
    expect(call).toMatchObject({ service: 'latchkey-bff', kind: CLIENT, parentSpanId: callback!.spanId });
    expect(call!.attributes['url.full']).toMatch(/\/oauth\/token$/);
  });

  it('OB-18 a 5xx answer marks its server span failed, and a failed query its database span', () => {
    expect(run.outage.status).toBe(503);
    const failed = named('latchkey-api', 'POST /graphql').find(
      (s) => s.attributes['http.response.status_code'] === 503,
    );
    expect(failed).toMatchObject({ status: STATUS_ERROR });
    expect(failed!.attributes['error.type']).toBe('503');
    const lookup = run.spans.find((s) => s.parentSpanId === failed!.spanId && s.name === 'db select');
    expect(lookup).toMatchObject({ status: STATUS_ERROR });
    expect(lookup!.attributes['error.type']).toEqual(expect.any(String));
    // The successful ones are not failed.
    expect(apiGraphqlSpan().status).not.toBe(STATUS_ERROR);
  });

  it('OB-14 no span carries a token, a token digest, the session cookie, the client secret or a query string', () => {
    expect(run.secrets.length).toBeGreaterThanOrEqual(8);
    for (const secret of run.secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(run.raw).not.toContain(secret);
    }
    for (const span of run.spans) {
      for (const key of ['url.path', 'url.full', 'http.route']) expect(String(span.attributes[key])).not.toContain('?');
    }
    // The callback's code and state came in a query string; the path alone was recorded.
    expect(named('latchkey-bff', 'GET /bff/callback')[0]!.attributes['url.path']).toBe('/bff/callback');
  });
});
