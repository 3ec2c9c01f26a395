import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bufferedBody, NOT_BUFFERED, readBody, TOO_LARGE } from './read-body.ts';

// The route's way of reading a body (graphql.router.ts): what is already buffered at once,
// else wait for the rest. Each answer says which way the body came and what it was.
const LIMIT = 64;
let server: Server;
let port: number;
/** Called when the server has parsed a request's headers, before the route reads its body. */
let onRequest: (() => void) | undefined;

async function route(req: IncomingMessage): Promise<string> {
  await Promise.resolve(); // the token check's awaits come first in the real route
  const buffered = bufferedBody(req, LIMIT);
  const read = buffered === NOT_BUFFERED ? await readBody(req, LIMIT) : buffered;
  const how = buffered === NOT_BUFFERED ? 'streamed' : 'buffered';
  return `${how}:${read === TOO_LARGE ? 'TOO_LARGE' : String(read)}`;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    onRequest?.();
    void route(req).then((answer) => res.writeHead(200, { 'content-length': Buffer.byteLength(answer) }).end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * Writes raw request bytes and returns the answers' bodies in order. Parts after the first are
 * written only once the server has parsed the first request's headers: a fixed pause let a
 * stalled process read head and body in one go, and answer `buffered` (issue 13).
 */
async function exchange(parts: string[], answers: number): Promise<string[]> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  const headersParsed = new Promise<void>((resolve) => (onRequest = resolve));
  const [first, ...rest] = parts;
  socket.write(first!);
  if (rest.length > 0) await headersParsed;
  onRequest = undefined;
  for (const part of rest) {
    socket.write(part);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  const deadline = Date.now() + 2000;
  const bodies = () =>
    received
      .split(/HTTP\/1\.1 200 OK\r\n/)
      .slice(1)
      .map((r) => r.slice(r.indexOf('\r\n\r\n') + 4));
  while (bodies().length < answers && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  socket.destroy();
  return bodies();
}

const post = (body: string) =>
  `POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('reading a request body', () => {
  it('a body that arrives with its headers is taken from the buffer at once, UTF-8 decoded', async () => {
    expect(await exchange([post('{"q":"é😀"}')], 1)).toEqual(['buffered:{"q":"é😀"}']);
  });

  it('pipelined requests on one connection each get their own body', async () => {
    expect(await exchange([post('one') + post('two') + post('') + post('three')], 4)).toEqual([
      'buffered:one',
      'buffered:two',
      'buffered:',
      'buffered:three',
    ]);
  });

  it('a body that arrives after its headers, or in pieces, is waited for', async () => {
    const head = post('{"a":1}').slice(0, -'{"a":1}'.length);
    expect(await exchange([head, '{"a"', ':1}'], 1)).toEqual(['streamed:{"a":1}']);
  });

  it('a chunked body is waited for, and refused past the limit (GQ-21)', async () => {
    const head = 'POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n';
    const chunk = (data: string) => `${data.length.toString(16)}\r\n${data}\r\n`;
    expect(await exchange([head + chunk('ab'), chunk('cd') + '0\r\n\r\n'], 1)).toEqual(['streamed:abcd']);
    expect(await exchange([head + chunk('x'.repeat(40)), chunk('y'.repeat(40)), '0\r\n\r\n'], 1)).toEqual([
      'streamed:TOO_LARGE',
    ]);
  });

  it('a buffered body past the limit is refused', async () => {
    expect(await exchange([post('z'.repeat(LIMIT + 1))], 1)).toEqual(['buffered:TOO_LARGE']);
  });
});
