import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@latchkey/logging';

/** The header a request id arrives in (from a proxy or a client) and is echoed in. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * An incoming id is kept only when it is short and made of characters that are safe in a
 * header and a log line; anything else (too long, spaces, quotes, a repeated header that Node
 * joined with ", ") is replaced by a fresh one rather than trusted.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._~:+=@/-]{1,128}$/;

const ID = Symbol('latchkey.requestId');

/** Every log line written while a request is being answered carries its id (request-scoped logger). */
const current = new AsyncLocalStorage<string>();

type WithId = IncomingMessage & { [ID]?: string };

/** The incoming value when it is a valid id, else a fresh random one. */
export function acceptRequestId(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** The id assignRequestId gave this request; undefined if it never ran. */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return (req as WithId)[ID];
}

/**
 * First step of every server: gives the request an id, echoes it as X-Request-Id, and runs
 * the rest of the request (`next`) in its async context, so a log line written anywhere while
 * answering it, an error handler's included, names it (withRequestIds). Plain node:http, so
 * the API and the BFF's fast path run it too.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const id = acceptRequestId(req.headers['x-request-id']);
  (req as WithId)[ID] = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  current.run(id, next);
}

/**
 * The app's logger, with `requestId` added to every line written while a request is answered
 * (a line that names its own requestId keeps it). A pino child whose log formatter reads the
 * async context: the routers and services keep their plain `logger`, nothing is threaded through.
 */
export function withRequestIds(logger: Logger): Logger {
  return logger.child(
    {},
    {
      formatters: {
        log(object: object) {
          const id = current.getStore();
          return id === undefined || 'requestId' in object ? object : { requestId: id, ...object };
        },
      },
    },
  );
}
