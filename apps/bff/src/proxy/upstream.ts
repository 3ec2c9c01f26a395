import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { BffDeps } from '../deps.ts';
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from '../deps.ts';
import { UpstreamUnavailable } from '../http/bff.errors.ts';
import { upstreamFailure } from './upstream-failure.ts';

/** A request to one of the two fixed upstreams, with the session's access token. */
export interface UpstreamRequest {
  /** Absolute URL, always built from configuration and a fixed path (BF-PX-01). */
  url: string;
  method: 'GET' | 'POST' | 'PATCH';
  accessToken: string;
  /** Request headers the browser sent, already restricted to the allowlist. */
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** Names the upstream in error messages. */
  upstream: 'authorization server' | 'API';
}

export interface UpstreamAnswer {
  status: number;
  /** Response headers, restricted to the allowlist. */
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * BBA "Proxy Restrictions": only these request headers go upstream; never the browser's cookie.
 * The User-Agent goes on so the security log (AU-04) and the API's last use (TR-06) name the
 * person's browser, not the BFF.
 */
export const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'user-agent'] as const;

/**
 * AU-04, TR-06: the browser's address (the BFF's `req.ip`, TRUST_PROXY respected), which the BFF
 * sets on every upstream call (a value the browser sent is never forwarded). The authorization
 * server and the API believe it only from a caller holding the portal's own token, which only the
 * BFF has.
 */
export const CLIENT_ADDRESS_HEADER = 'latchkey-client-address';
/** Only these response headers come back; Cache-Control is the BFF's own (no-store). */
export const RELAYED_RESPONSE_HEADERS = ['content-type', 'retry-after'] as const;

/** Far above any account or GraphQL answer of this service; a runaway upstream is cut off. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export type CallUpstream = (request: UpstreamRequest) => Promise<UpstreamAnswer>;

function readAnswer(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        res.destroy(new UpstreamUnavailable('The upstream answer is too large.'));
        return;
      }
      chunks.push(chunk);
    });
    res.once('end', () => resolve(Buffer.concat(chunks, size)));
    res.on('error', reject);
    res.on('aborted', () => reject(new Error('upstream answer aborted')));
  });
}

/** What AbortSignal.timeout would have raised; upstream-failure.ts knows it by its name. */
function timeoutError(ms: number): Error {
  return new DOMException(`The upstream did not answer within ${ms} ms.`, 'TimeoutError');
}

/** Node's code for a reset connection, and for "socket hang up" (closed before any answer). */
const CONNECTION_RESET = 'ECONNRESET';

/**
 * One upstream call with a time limit that covers the answer's body too (every
 * outbound call has a timeout); a failure to get an answer becomes 503/504, never a 500. Plain
 * node:http with keep-alive connections: on the Explorer's hot path it costs about a third of
 * the CPU of fetch (measured for issue 3's proxy benchmark). The time limit is one timer per
 * call rather than AbortSignal.timeout, which costs several times as much per call.
 *
 * Keep-alive race: the upstream (packages/process serve.ts, keepAliveTimeout 5 s plus Node's
 * 1 s keepAliveTimeoutBuffer) may close an idle connection just as this agent reuses it; the
 * request then dies with ECONNRESET before any answer. That request is sent once more on a
 * fresh connection, as Node's documentation advises (`request.reusedSocket`). Never after an
 * answer began, never after the time limit, never twice; the one timer still covers both tries (BF-PX-03).
 * The agent sets no idle `timeout`: in Node 24 the agent shortens idle sockets to the server's
 * `Keep-Alive: timeout=` hint minus 1 s only when one is set, and setting one adds a listener
 * per request on this hot path; the single retry handles the race whatever closed the socket.
 */
export function createUpstream(
  deps: Pick<BffDeps, 'upstreamTimeoutMs' | 'observeUpstream' | 'observability'>,
): CallUpstream {
  const timeoutMs = deps.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  // OB-15: only while tracing is on; off, the hot path does not even look.
  const tracing = deps.observability?.tracing.enabled ? deps.observability.tracing : undefined;
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, maxSockets: 256 }),
    'https:': new HttpsAgent({ keepAlive: true, maxSockets: 256 }),
  };
  return (request) =>
    new Promise<UpstreamAnswer>((resolve, reject) => {
      const url = new URL(request.url);
      const secure = url.protocol === 'https:';
      const send = secure ? httpsRequest : httpRequest;
      deps.observeUpstream?.({ method: request.method, url: `${url.origin}${url.pathname}` });
      const headers: Record<string, string | number> = {
        ...request.headers,
        authorization: `Bearer ${request.accessToken}`,
      };
      if (request.body !== undefined) headers['content-length'] = request.body.length;
      // OB-15: a client span, whose traceparent the upstream continues.
      let span = tracing?.startSpan(request.method, 'client', {
        'http.request.method': request.method,
        'server.address': url.hostname,
        'url.full': `${url.origin}${url.pathname}`,
      });
      span?.inject(headers as Record<string, string>);
      const options: RequestOptions = {
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers,
        agent: secure ? agents['https:'] : agents['http:'],
      };
      let answered = false;
      let retried = false;
      const onAnswer = (res: IncomingMessage): void => {
        answered = true;
        readAnswer(res).then((body) => {
          clearTimeout(timer);
          span?.set('http.response.status_code', res.statusCode ?? 502);
          span?.end();
          span = undefined;
          const relayed: Record<string, string> = {};
          for (const name of RELAYED_RESPONSE_HEADERS) {
            const value = res.headers[name];
            if (typeof value === 'string') relayed[name] = value;
          }
          resolve({ status: res.statusCode ?? 502, headers: relayed, body });
        }, fail);
      };
      let req = send(options, onAnswer);
      const timer = setTimeout(() => {
        // Settled as a timeout first: the destroyed socket then reports an abort, too late.
        const err = timeoutError(timeoutMs);
        // Ended once: a timeout's span is not ended again by the error the destroyed request reports.
        span?.end(err);
        span = undefined;
        reject(err);
        req.destroy(err);
      }, timeoutMs);
      // `this` is the request when it reports an error, undefined when the answer's body does.
      function fail(this: unknown, err: unknown): void {
        // A late error of the first try, once the retry is under way: the promise is the retry's.
        if (this !== undefined && this !== req) return;
        if (
          !answered &&
          !retried &&
          req.reusedSocket &&
          (err as NodeJS.ErrnoException | undefined)?.code === CONNECTION_RESET
        ) {
          // The keep-alive race: no answer byte came, and an upstream that closed the idle
          // connection never read the request. (One that crashed mid-request would see a POST
          // twice; Node's documented trade-off.) A throwaway agent's fresh connection, so the
          // retry cannot pick another stale idle socket.
          retried = true;
          options.agent = false;
          req = send(options, onAnswer);
          req.on('error', fail);
          req.end(request.body);
          return;
        }
        clearTimeout(timer);
        span?.end(err);
        span = undefined;
        reject(err);
      }
      // `on`, not `once`: a late second error must not go unhandled; the promise is settled.
      req.on('error', fail);
      req.end(request.body);
    }).catch((err: unknown) => {
      throw upstreamFailure(err, request.upstream);
    });
}
