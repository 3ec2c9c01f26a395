import type { RequestHandler } from 'express';
import type { Logger } from '@latchkey/logging';

/**
 * One line per request: method, path, status and duration. The query string is cut off
 * (it carries `state`, `code_challenge` and, on a callback, the authorization code) and headers and
 * bodies are never logged (RF-04).
 */
export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const path = req.originalUrl.split('?', 1)[0]!.slice(0, 512);
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
      if (!res.writableFinished) {
        logger.info({ method: req.method, path, status: res.statusCode, aborted: true }, 'request');
      }
    });
    next();
  };
}
