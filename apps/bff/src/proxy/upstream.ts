import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
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

/** BBA "Proxy Restrictions": only these request headers go upstream; never the browser's cookie. */
export const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept'] as const;
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

/**
 * One upstream call with a time limit that covers the answer's body too (SECURITY.md §5.3:
 * timeouts everywhere); a failure to get an answer becomes 503/504, never a 500. Plain
 * node:http with keep-alive connections: on the Explorer's hot path it costs about a third of
 * the CPU of fetch (measured for issue 3's proxy benchmark). The time limit is one timer per
 * call rather than AbortSignal.timeout, which costs several times as much per call.
 */
export function createUpstream(deps: BffDeps): CallUpstream {
  const timeoutMs = deps.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, maxSockets: 256 }),
    'https:': new HttpsAgent({ keepAlive: true, maxSockets: 256 }),
  };
  return (request) =>
    new Promise<UpstreamAnswer>((resolve, reject) => {
      const url = new URL(request.url);
      const secure = url.protocol === 'https:';
      deps.observeUpstream?.({ method: request.method, url: `${url.origin}${url.pathname}` });
      const headers: Record<string, string | number> = {
        ...request.headers,
        authorization: `Bearer ${request.accessToken}`,
      };
      if (request.body !== undefined) headers['content-length'] = request.body.length;
      const req = (secure ? httpsRequest : httpRequest)(
        {
          protocol: url.protocol,
          hostname: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method: request.method,
          headers,
          agent: secure ? agents['https:'] : agents['http:'],
        },
        (res) => {
          readAnswer(res).then((body) => {
            clearTimeout(timer);
            const relayed: Record<string, string> = {};
            for (const name of RELAYED_RESPONSE_HEADERS) {
              const value = res.headers[name];
              if (typeof value === 'string') relayed[name] = value;
            }
            resolve({ status: res.statusCode ?? 502, headers: relayed, body });
          }, fail);
        },
      );
      const timer = setTimeout(() => {
        // Settled as a timeout first: the destroyed socket then reports an abort, too late.
        const err = timeoutError(timeoutMs);
        reject(err);
        req.destroy(err);
      }, timeoutMs);
      function fail(err: unknown): void {
        clearTimeout(timer);
        reject(err);
      }
      // `on`, not `once`: a late second error must not go unhandled; the promise is settled.
      req.on('error', fail);
      req.end(request.body);
    }).catch((err: unknown) => {
      throw upstreamFailure(err, request.upstream);
    });
}
