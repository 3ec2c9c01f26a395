// Small helpers the test harness shares: reserved loopback ports, servers on 127.0.0.1 port 0,
// closing them, and a logger whose JSON lines are captured in an array.
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, type Logger, type LoggerOptions } from '@latchkey/logging';

/** Listens on 127.0.0.1, port 0 (the OS's choice), and resolves the port it got. */
export function listenOnLoopback(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('no port'));
      else resolve(address.port);
    });
  });
}

function closeQuietly(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The kernel's range for port-0 listeners and outgoing connections (Linux; else the IANA range). */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low!, high!];
  } catch {
    // not Linux
  }
  return [49152, 65535];
}

/**
 * A free loopback port below the kernel's ephemeral range, for a server the test stops and
 * starts again on the same port (redis-server, PostgreSQL), one a child process binds later,
 * or one that must stay closed. No port-0 listener and no outgoing connection ever gets such a
 * port. One that port 0 gave out is among the ~28k ephemeral ports every other server of the
 * run draws from: a stopped Redis's port could be answered by someone else's server before
 * the restart, and a port probed free could be taken before the child bound it (issue 13).
 * Free when probed; callers that bind it retry when two probes chose the same port.
 */
export async function reservedPort(): Promise<number> {
  const [low] = ephemeralRange();
  const top = low - 1;
  const bottom = Math.max(1024, top - 10_000);
  for (let attempt = 0; ; attempt += 1) {
    const port = bottom + randomInt(top - bottom + 1);
    const server = createServer();
    server.unref();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await closeQuietly(server);
      return port;
    }
    if (attempt >= 50) throw new Error(`no free port between ${bottom} and ${top}`);
  }
}

/**
 * `count` distinct reserved ports (see reservedPort): for servers a child process binds later,
 * and for ports that must stay closed (connection refused) while the test runs.
 */
export async function reservedPorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await reservedPort());
  return [...ports];
}

/** Drops the open connections (keep-alive included), then closes the server. */
export async function closeServer(server: HttpServer): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A logger (at `debug` unless told) whose JSON lines are pushed onto `lines`, one entry per line. */
export function captureLogger(
  lines: string[],
  options: { name?: string; level?: LoggerOptions['level'] } = {},
): Logger {
  return createLogger({
    level: options.level ?? 'debug',
    ...(options.name === undefined ? {} : { name: options.name }),
    destination: new Writable({
      write(chunk, _encoding, callback) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        callback();
      },
    }),
  });
}

/**
 * A form POST to `url` from a chosen loopback source address (127.0.0.0/8 all reach a server on
 * 127.0.0.1), so "another client" is a real source address, not a trusted X-Forwarded-For.
 */
export function postFormFrom(
  localAddress: string,
  url: string,
  form: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
