// A real server on loopback that serves client ID metadata documents to the authorization
// server under test (CM-*), counting what it is asked: requests per path and TCP connections.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { expect } from 'vitest';
import { decodeHtmlEntities, type PageResult } from '#test/support/browserless-flow.ts';
import { closeServer, listenOnLoopback } from '#test/support/loopback.ts';
import { perFile } from '#test/support/per-file.ts';
import type { TestSystem } from '#test/support/system.ts';
import type { TestCertificate } from '#test/support/tls.ts';
import { expectErrorPage } from '../authorize.fixture.ts';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface DocumentServer {
  /** `http://127.0.0.1:<port>` (or https). */
  origin: string;
  port: number;
  /** The URL of `path` on this server. */
  url(path: string): string;
  /** Answers requests for `path` with `handler`; anything not served is a 404. */
  serve(path: string, handler: Handler): void;
  /** Serves `body` as application/json at `path`, with these extra headers. */
  serveJson(path: string, body: unknown, headers?: Record<string, string>): void;
  /** Requests received for `path` (every path when left out). */
  requests(path?: string): number;
  /** TCP connections accepted, whatever was sent on them. */
  connections(): number;
  close(): Promise<void>;
}

export async function startDocumentServer(tls?: TestCertificate): Promise<DocumentServer> {
  const handlers = new Map<string, Handler>();
  const counts = new Map<string, number>();
  let connections = 0;
  const onRequest: Handler = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const handler = handlers.get(path);
    if (handler) handler(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  };
  const server: Server = tls
    ? createHttpsServer({ cert: tls.cert, key: tls.key }, onRequest)
    : createHttpServer(onRequest);
  server.on('connection', () => (connections += 1));
  const port = await listenOnLoopback(server);
  const origin = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (path) => `${origin}${path}`,
    serve: (path, handler) => void handlers.set(path, handler),
    serveJson(path, body, headers = {}) {
      handlers.set(path, (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      });
    },
    requests: (path) =>
      path === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(path) ?? 0),
    connections: () => connections,
    close: () => closeServer(server),
  };
}

/** The file's document server, started before its first test and closed after its last. */
export function useDocumentServer(tls?: () => TestCertificate): DocumentServer {
  return perFile(
    async () => ({ server: await startDocumentServer(tls?.()) }),
    ({ server }) => server.close(),
  ).server;
}

/** The loopback redirect URL the documents list (any port matches it: PC-06). */
export const DOC_REDIRECT_URI = 'http://127.0.0.1/callback';

/** A valid document for `clientId`. */
export function documentFor(clientId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { client_id: clientId, client_name: 'Doc App', redirect_uris: [DOC_REDIRECT_URI], ...extra };
}

/**
 * CM-12: the refusal is the authorization endpoint's 400 page (no Location, nothing redirected)
 * saying `message`, and the log says why, by reason code.
 */
export function expectDocumentRefused(
  system: TestSystem,
  page: PageResult,
  message: RegExp,
  reason: string,
  clientHost: string,
): void {
  expectErrorPage(page, 400);
  expect(decodeHtmlEntities(page.html)).toMatch(message);
  const logged = system.logs
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'client metadata document refused');
  expect(logged.at(-1), JSON.stringify(logged.slice(-3))).toMatchObject({ reason, clientHost });
}

/** The stored row of a document's client, if any. */
export async function documentClientRow(system: TestSystem, clientId: string) {
  return system.db.selectFrom('clients').selectAll().where('id', '=', clientId).executeTakeFirst();
}
