import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@latchkey/logging';

/**
 * One line per request: method, path, status and duration. The query string is cut off
 * (the callback's carries the authorization code and state) and headers and bodies are
 * never logged (RF-04). Plain node:http, so the /bff/graphql fast path logs the same line;
 * nothing is attached at all when the level is above info.
 */
export function requestLogger(logger: Logger) {
  return function logRequest(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    if (!logger.isLevelEnabled('info')) {
      next();
      return;
    }
    const started = performance.now();
    const path = (req.url ?? '/').split('?', 1)[0]!.slice(0, 512);
    res.once('finish', () => {
      logger.info(
        {
          method: req.method,
          path,
          status: res.statusCode,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    });
    res.once('close', () => {
      if (!res.writableFinished) logger.info({ method: req.method, path, aborted: true }, 'request');
    });
    next();
  };
}
