import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer, listenOnLoopback } from '#test/support/loopback.ts';
import { UpstreamTimeout, UpstreamUnavailable } from '../http/bff.errors.ts';
import { createUpstream, type UpstreamRequest } from './upstream.ts';

// The keep-alive race of a full e2e run (503 "read ECONNRESET" on POST /bff/graphql): the
// upstream closes an idle keep-alive connection just as the BFF reuses it. Real servers on
// loopback make it deterministic: they cut a connection on its second request, unanswered.

interface Upstream {
  url: string;
  /** Requests whose head arrived, and the connections they came on. */
  requests: number;
  connections: number;
  bodies: string[];
}

type Answer = (nth: { onConnection: number; overall: number }, req: IncomingMessage, res: ServerResponse) => void;

const servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function startUpstream(answer: Answer): Promise<Upstream> {
  const seen = new WeakMap<Socket, number>();
  const upstream: Upstream = { url: '', requests: 0, connections: 0, bodies: [] };
  // Idle connections stay open: only the test decides when one is cut.
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    upstream.requests += 1;
    const onConnection = (seen.get(req.socket) ?? 0) + 1;
    seen.set(req.socket, onConnection);
    answer({ onConnection, overall: upstream.requests }, req, res);
  });
  server.on('connection', () => {
    upstream.connections += 1;
  });
  upstream.url = `http://127.0.0.1:${await listenOnLoopback(server)}/graphql`;
  servers.push({
    close: () => {
      server.closeAllConnections();
      return closeServer(server);
    },
  });
  return upstream;
}

/** Echoes the body it read, on a connection kept alive. */
function echo(upstream: Upstream, req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    upstream.bodies.push(body);
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
}

function graphql(url: string, query: string): UpstreamRequest {
  return {
    url,
    method: 'POST',
    accessToken: 'access-token',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ query })),
    upstream: 'API',
  };
}

/** Lets the agent put the first call's socket back in its pool of idle sockets. */
const idle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('upstream keep-alive race: a reused connection the upstream closed before answering', () => {
  it('BF-PX-03 is sent once more on a fresh connection and answered, body and all', async () => {
    const upstream = await startUpstream((nth, req, res) => {
      if (nth.onConnection === 1) echo(upstream, req, res);
      else req.socket.destroy(); // the idle connection closed as the request arrives
    });
    const call = createUpstream({ upstreamTimeoutMs: 2_000 });
    expect((await call(graphql(upstream.url, '{ a }'))).status).toBe(200);
    await idle();
    const answer = await call(graphql(upstream.url, '{ b }'));
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('{"query":"{ b }"}');
    // First call, the cut request on the reused connection, its retry on a new one.
    expect(upstream).toMatchObject({ requests: 3, connections: 2, bodies: ['{"query":"{ a }"}', '{"query":"{ b }"}'] });
  });

  it('BF-PX-03 a retry that is cut too: 503 UpstreamUnavailable after exactly one retry, no loop', async () => {
    const upstream = await startUpstream((nth, req, res) => {
      if (nth.overall === 1) echo(upstream, req, res);
      else req.socket.destroy();
    });
    const call = createUpstream({ upstreamTimeoutMs: 2_000 });
    await call(graphql(upstream.url, '{ a }'));
    await idle();
    await expect(call(graphql(upstream.url, '{ b }'))).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(upstream).toMatchObject({ requests: 3, connections: 2 });
  });

  it('BF-PX-03 an upstream that resets every new connection: 503 at once, never re-sent', async () => {
    let connections = 0;
    const server = createNetServer((socket) => {
      connections += 1;
      socket.resetAndDestroy();
    });
    const port = await listenOnLoopback(server);
    servers.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
    const call = createUpstream({ upstreamTimeoutMs: 2_000 });
    const failure = await call(graphql(`http://127.0.0.1:${port}/graphql`, '{ a }')).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(UpstreamUnavailable);
    expect((failure as UpstreamUnavailable).status).toBe(503);
    expect(connections).toBe(1);
  });

  it('BF-PX-03 an answer cut after it began is not re-sent: 503', async () => {
    const upstream = await startUpstream((nth, req, res) => {
      if (nth.onConnection === 1) {
        echo(upstream, req, res);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"data":', () => req.socket.destroy());
    });
    const call = createUpstream({ upstreamTimeoutMs: 2_000 });
    await call(graphql(upstream.url, '{ a }'));
    await idle();
    await expect(call(graphql(upstream.url, '{ b }'))).rejects.toBeInstanceOf(UpstreamUnavailable);
    expect(upstream).toMatchObject({ requests: 2, connections: 1 });
  });

  it('BF-PX-03 one time limit covers the retry too: 504 within it, no third try', async () => {
    const timeoutMs = 300;
    const upstream = await startUpstream((nth, req, res) => {
      if (nth.overall === 1) echo(upstream, req, res);
      else if (nth.onConnection === 2) req.socket.destroy();
      // The retry's connection never answers.
    });
    const call = createUpstream({ upstreamTimeoutMs: timeoutMs });
    await call(graphql(upstream.url, '{ a }'));
    await idle();
    const started = performance.now();
    await expect(call(graphql(upstream.url, '{ b }'))).rejects.toBeInstanceOf(UpstreamTimeout);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 5);
    // A timer restarted for the retry would take twice the limit.
    expect(elapsed).toBeLessThan(timeoutMs * 1.8);
    expect(upstream).toMatchObject({ requests: 3, connections: 2 });
  });
});
