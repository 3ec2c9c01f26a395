// serve()'s graceful stop (R-13) on a real server on loopback, with a handler the test holds
// open: what a client sees of the drain, connection by connection.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, sqlitePathFor } from '@latchkey/db';
import { healthEndpoints, isDraining } from '@latchkey/http';
import { createLogger } from '@latchkey/logging';
import { serve, type RunningServer } from './serve.ts';

/**
 * Resolves once `server` has accepted `count` more connections. A connection accepted before
 * close() is a busy one for Node (a request may be on its way); one still in the listen backlog
 * is refused with the port. A fixed 50 ms pause raced the accept on a stalled machine (issue 13).
 */
function accepted(server: Server, count: number): Promise<void> {
  return new Promise((resolve) => {
    let left = count;
    const onConnection = () => {
      left -= 1;
      if (left > 0) return;
      server.off('connection', onConnection);
      resolve();
    };
    server.on('connection', onConnection);
  });
}

/** A request the handler holds until the test releases it. */
interface Held {
  res: ServerResponse;
  release(body?: string): void;
}

function heldServer(options: { shutdownTimeoutMs?: number } = {}) {
  const held: Held[] = [];
  const waiting: Array<(h: Held) => void> = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/now') {
      res.end(isDraining(req) ? 'draining' : 'serving');
      return;
    }
    if (req.url === '/stream') res.writeHead(200, { 'content-type': 'text/plain' }).write('part 1;');
    const entry: Held = { res, release: (body = 'done') => res.end(body) };
    const next = waiting.shift();
    if (next) next(entry);
    else held.push(entry);
  };
  const nextHeld = () =>
    new Promise<Held>((resolve) => {
      const ready = held.shift();
      if (ready) resolve(ready);
      else waiting.push(resolve);
    });
  return { handler, nextHeld, options };
}

interface Answer {
  status: number;
  connection: string | undefined;
  body: string;
}

function get(port: number, path: string, agent: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves with the error code of a fresh TCP connection, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

let running: RunningServer | undefined;
const agents: Agent[] = [];
function keepAliveAgent(): Agent {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  agents.push(agent);
  return agent;
}
afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  running?.server.closeAllConnections();
  await running?.close();
  running = undefined;
});

describe('R-11 serve(): slow clients', () => {
  it("R-11 header and request timeouts are below Node's defaults, keep-alive no longer than its default", async () => {
    running = await serve((_req, res) => res.end(), 0, '127.0.0.1');
    const defaults = createServer();
    expect(running.server.headersTimeout).toBeLessThan(defaults.headersTimeout);
    expect(running.server.requestTimeout).toBeLessThan(defaults.requestTimeout);
    expect(running.server.requestTimeout).toBeGreaterThan(running.server.headersTimeout);
    expect(running.server.keepAliveTimeout).toBeLessThanOrEqual(defaults.keepAliveTimeout);
  });
});

describe('R-13 serve(): graceful stop', () => {
  it('R-13 refuses new connections at once; an in-flight request finishes with Connection: close', async () => {
    const { handler, nextHeld } = heldServer();
    running = await serve(handler, 0, '127.0.0.1', { shutdownTimeoutMs: 5_000 });
    const agent = keepAliveAgent();
    const answer = get(running.port, '/slow', agent);
    const held = await nextHeld();

    let stopped = false;
    const closing = running.close().then(() => (stopped = true));
    expect(await tryConnect(running.port)).toBe('ECONNREFUSED');
    expect(stopped).toBe(false);

    held.release('finished');
    expect(await answer).toEqual({ status: 200, connection: 'close', body: 'finished' });
    await closing;
    expect(stopped).toBe(true);
  });

  it('R-13 closes idle keep-alive connections at once instead of waiting for their timeout', async () => {
    const { handler } = heldServer();
    running = await serve(handler, 0, '127.0.0.1', { shutdownTimeoutMs: 5_000 });
    const agent = keepAliveAgent();
    expect(await get(running.port, '/now', agent)).toMatchObject({ status: 200, connection: 'keep-alive' });
    const started = performance.now();
    await running.close();
    // keepAliveTimeout is 5 s: closing in well under it means the idle socket was closed, not waited out.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('R-13 a response that started with keep-alive before the drain has its connection closed when done', async () => {
    const { handler, nextHeld } = heldServer();
    running = await serve(handler, 0, '127.0.0.1', { shutdownTimeoutMs: 5_000 });
    const agent = keepAliveAgent();
    const answer = get(running.port, '/stream', agent);
    const held = await nextHeld();
    const closing = running.close();
    held.release('part 2');
    expect(await answer).toEqual({ status: 200, connection: 'keep-alive', body: 'part 1;part 2' });
    const started = performance.now();
    await closing;
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('R-13 a request still arriving when the drain begins is answered, marked draining, with Connection: close', async () => {
    const { handler } = heldServer();
    running = await serve(handler, 0, '127.0.0.1', { shutdownTimeoutMs: 5_000 });
    const accepting = accepted(running.server, 1);
    const socket = connect(running.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += String(chunk)));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise((resolve) => socket.once('connect', resolve));
    // Half a request: the connection is busy, not idle, when the drain begins.
    socket.write('GET /now HTTP/1.1\r\nHost: x\r\n');
    await accepting;
    const closing = running.close();
    expect(await tryConnect(running.port)).toBe('ECONNREFUSED');
    socket.write('\r\n');
    await ended;
    await closing;
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).toMatch(/\r\nConnection: close\r\n/i);
    expect(received).toMatch(/draining$/);
  });

  it('R-13 requests still running at the shutdown timeout are cut, and close() resolves', async () => {
    const { handler, nextHeld } = heldServer();
    running = await serve(handler, 0, '127.0.0.1', { shutdownTimeoutMs: 200 });
    const agent = keepAliveAgent();
    const answer = get(running.port, '/never', agent).then(
      () => 'answered',
      (err: NodeJS.ErrnoException) => err.code,
    );
    await nextHeld();
    const started = performance.now();
    await running.close();
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(1_500);
    expect(await answer).toBe('ECONNRESET');
  });

  it('R-13 /readyz answers 503 draining (with Retry-After) once the drain has begun, /healthz still 200', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'latchkey-serve-'));
    const db = createDatabase({ sqlitePath: sqlitePathFor(folder) });
    try {
      await migrateToLatest(db);
      const health = healthEndpoints({
        db,
        config: { databaseTimeoutMs: 1_000, redisTimeoutMs: 1_000 },
        logger: createLogger({ level: 'silent' }),
      });
      running = await serve((req, res) => health(req, res, () => res.end('other')), 0, '127.0.0.1');
      const agent = keepAliveAgent();
      expect(await get(running.port, '/readyz', agent)).toMatchObject({ status: 200 });

      // Two connections still receiving their request when the drain begins.
      const accepting = accepted(running.server, 2);
      const probes = ['/readyz', '/healthz'].map((path) => {
        const socket = connect(running!.port, '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => (received += String(chunk)));
        const ended = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
        socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n`);
        return { socket, ended };
      });
      await accepting;
      const closing = running.close();
      for (const probe of probes) probe.socket.write('\r\n');
      const [ready, alive] = await Promise.all(probes.map((p) => p.ended));
      await closing;
      expect(ready).toMatch(/^HTTP\/1\.1 503 /);
      expect(ready).toMatch(/\r\nRetry-After: 5\r\n/i);
      expect(ready).toMatch(/\{"status":"draining"\}$/);
      expect(alive).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      await db.destroy();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
