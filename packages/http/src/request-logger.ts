import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@latchkey/logging';
import { isProbe } from './health.ts';
import { requestIdOf } from './request-id.ts';

/**
 * One line per request: its id, method, path, status and duration. The query string is cut
 * off (it carries `state`, `code_challenge` and, on a callback, the authorization code) and
 * headers and bodies are never logged (RF-04). Health probes, which a load balancer sends
 * every few seconds, are logged at debug. Plain node:http, so the Express apps, the API and
 * the BFF's /bff/graphql fast path write the same line; nothing is attached at all when the
 * level is above info. Runs after assignRequestId.
 */
export function requestLogger(logger: Logger) {
  return function logRequest(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    if (!logger.isLevelEnabled('info')) {
      next();
      return;
    }
    const started = performance.now();
    const path = (req.url ?? '/').split('?', 1)[0]!.slice(0, 512);
    const level = isProbe(path) ? 'debug' : 'info';
    const requestId = requestIdOf(req);
    res.once('finish', () => {
      logger[level](
        {
          requestId,
          method: req.method,
          path,
          status: res.statusCode,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    });
    res.once('close', () => {
      if (!res.writableFinished) logger.info({ requestId, method: req.method, path, aborted: true }, 'request');
    });
    next();
  };
}
