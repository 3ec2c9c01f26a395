import type { IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { ForbiddenAddress, guardedLookup, isAllowedAddress } from './address-guard.ts';
import type { CachingHeaders } from './cache-lifetime.ts';
import { MetadataDocumentRefused, RefusalReason } from './metadata-document.errors.ts';

/** CM-09: the whole fetch (resolution, connection, TLS, headers, body) ends within this. */
export const FETCH_TIMEOUT_MS = 5_000;
/** CM-09: a document is a few hundred bytes; more than this is not read. */
export const MAX_DOCUMENT_BYTES = 64 * 1024;

export interface FetchOptions {
  /** CIMD_ALLOW_LOOPBACK: loopback addresses are allowed (CM-08). */
  allowLoopback: boolean;
  /** Extra CA certificates (PEM) trusted besides the system's (AuthDeps.metadataDocumentCa). */
  ca?: string | undefined;
  timeoutMs?: number;
  maxBytes?: number;
}

export interface FetchedDocument {
  /** The parsed JSON body. */
  body: unknown;
  headers: CachingHeaders;
}

/** `application/json`, or a `+json` type (RFC 6839), with any parameters. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

const refused = (reason: RefusalReason, detail: string, cause?: unknown) =>
  new MetadataDocumentRefused(reason, detail, cause === undefined ? undefined : { cause });

function header(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** What a failed request means to the person signing in; the cause stays in the error for the log. */
function failureOf(err: unknown): MetadataDocumentRefused {
  if (err instanceof MetadataDocumentRefused) return err;
  if (err instanceof ForbiddenAddress) {
    return refused(
      RefusalReason.forbiddenAddress,
      "The application's metadata document is not on a public internet address.",
      err,
    );
  }
  return refused(RefusalReason.unreachable, "The application's metadata document could not be fetched.", err);
}

/**
 * Fetches a client ID metadata document (CM-08, CM-09) with node:http(s), not fetch(), for its
 * `lookup` hook: the address is checked where the connection gets it (address-guard.ts). An IP
 * literal in the URL is checked before anything is sent, as Node does not look one up.
 *
 * - No redirect is followed: a 3xx is refused, so the address checked is the only one reached.
 * - One timer for the whole exchange; a server that never answers, or trickles, is cut at 5 s.
 * - The body is counted as it streams and the request destroyed past 64 KB (a Content-Length
 *   over it is refused before reading); no compression is asked for, so the count is the bytes.
 * - Only a 200 with a JSON content type is read, and it must parse.
 * - No cookies, no credentials, a fresh connection each time (agent: false).
 */
export function fetchMetadataDocument(url: URL, options: FetchOptions): Promise<FetchedDocument> {
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_DOCUMENT_BYTES;
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) !== 0 && !isAllowedAddress(literal, options.allowLoopback)) {
    return Promise.reject(failureOf(new ForbiddenAddress()));
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  // Whatever goes wrong, even a throw while the request is built, is a refusal (CM-12), never a 500.
  return new Promise<FetchedDocument>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: { error: unknown } | { document: FetchedDocument }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if ('error' in outcome) {
        req.destroy();
        reject(failureOf(outcome.error));
      } else {
        resolve(outcome.document);
      }
    };
    const req = request(
      url,
      {
        method: 'GET',
        agent: false,
        lookup: guardedLookup(options.allowLoopback),
        headers: { accept: 'application/json', 'accept-encoding': 'identity', 'user-agent': 'Latchkey' },
        ...(url.protocol === 'https:' && options.ca !== undefined ? { ca: [...rootCertificates, options.ca] } : {}),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          finish({
            error: refused(
              RefusalReason.redirect,
              "The application's metadata document URL redirects elsewhere; Latchkey follows no redirects.",
            ),
          });
          return;
        }
        if (status !== 200) {
          finish({
            error: refused(
              RefusalReason.httpStatus,
              "The application's metadata document could not be fetched (its server did not answer 200 OK).",
            ),
          });
          return;
        }
        if (!JSON_TYPE.test(header(response, 'content-type') ?? '')) {
          finish({
            error: refused(
              RefusalReason.notJson,
              "The application's metadata document is not JSON (Content-Type application/json).",
            ),
          });
          return;
        }
        const tooLarge = () =>
          refused(RefusalReason.tooLarge, `The application's metadata document is larger than ${maxBytes / 1024} KB.`);
        if (Number(header(response, 'content-length') ?? 0) > maxBytes) {
          finish({ error: tooLarge() });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) finish({ error: tooLarge() });
          else chunks.push(chunk);
        });
        response.on('error', (error) => finish({ error }));
        response.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch (error) {
            finish({
              error: refused(RefusalReason.notJson, "The application's metadata document is not valid JSON.", error),
            });
            return;
          }
          finish({
            document: {
              body,
              headers: {
                cacheControl: header(response, 'cache-control'),
                expires: header(response, 'expires'),
                date: header(response, 'date'),
                age: header(response, 'age'),
              },
            },
          });
        });
      },
    );
    const timer = setTimeout(() => {
      finish({
        error: refused(
          RefusalReason.timeout,
          `The application's metadata document did not arrive within ${timeoutMs / 1000} seconds.`,
        ),
      });
    }, timeoutMs);
    req.on('error', (error) => finish({ error }));
    req.end();
  }).catch((err: unknown) => {
    throw failureOf(err);
  });
}
