import type { Request, RequestHandler } from 'express';
import type { Options } from 'express-rate-limit';
import { inSequence, setNoStore } from '@latchkey/http';
import type { AuthDeps } from '../../deps.ts';
import { layeredLimit } from '../../http/rate-limit.ts';
import { sendPage } from '../../http/send-page.ts';
import { errorPage } from '../../http/views/error-page.view.ts';
import { isMetadataDocumentClientId } from './metadata-document-url.ts';

const MINUTE_MS = 60_000;

/** The request's `client_id`, the first when sent twice (checkClient refuses duplicates later). */
function clientIdOf(req: Request): string | undefined {
  const value: unknown = req.query['client_id'];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

/**
 * The authorization endpoint's page, with Retry-After and the draft-8 RateLimit headers already
 * set by express-rate-limit; nothing about the client is trusted yet, so never a redirect (CM-12).
 */
const tooManyDocumentRequests: Options['handler'] = (_req, res) => {
  setNoStore(res);
  sendPage(
    res,
    429,
    errorPage({
      title: 'Too many sign-in requests',
      detail:
        'Too many sign-in requests for apps named by a web address came from your network in a short time. Wait a minute, then try again.',
      badge: 'Error 429',
    }),
  );
};

/**
 * CM-21: each authorization request that names its client by a metadata document's URL may make
 * the server fetch that document, so such requests are limited per client address
 * (RATE_LIMIT_METADATA_DOCUMENT_PER_MINUTE), cached documents included: the limit is decided
 * before anything is read, so a flood costs neither a fetch nor a database read. Requests for
 * registered clients are not counted. In-process always, and across instances with Redis (D-8).
 */
export function metadataDocumentRateLimit(deps: AuthDeps): RequestHandler {
  const { enabled, perMinute } = deps.config.clientIdMetadataDocuments;
  return inSequence(
    layeredLimit(
      {
        identifier: 'metadata-document-address',
        windowMs: MINUTE_MS,
        limit: perMinute,
        standardHeaders: 'draft-8',
        legacyHeaders: false,
        skip: (req) => {
          const clientId = clientIdOf(req);
          return !enabled || clientId === undefined || !isMetadataDocumentClientId(clientId);
        },
        handler: tooManyDocumentRequests,
      },
      deps,
    ),
  );
}
