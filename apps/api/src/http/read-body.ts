import type { IncomingMessage } from 'node:http';

/** The body was larger than the limit; the caller answers 413. */
export const TOO_LARGE = Symbol('too large');

/**
 * Reads the whole request body as UTF-8, refusing anything above `limit` bytes (GQ-21).
 * A declared Content-Length above the limit is refused before a byte is read. Resolves
 * `undefined` when the client went away mid-body (nothing left to answer).
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string | typeof TOO_LARGE | undefined> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onGone);
      req.off('close', onGone);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8'));
    };
    const onGone = () => {
      cleanup();
      resolve(undefined);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onGone);
  });
}

/** The body is not all in yet: wait for it with readBody. */
export const NOT_BUFFERED = Symbol('not buffered');

/**
 * The body without waiting, when all of it is already in the request's buffer: a small request
 * arrives in one packet with its headers, and Node's parser has pushed its body before the
 * route's first await returns (it marks the message complete only a little later). "All of it"
 * is every byte Content-Length declares, or a message the parser has finished. `read()` then
 * hands it over at once, with no listeners, events or promise; the stream still ends as usual.
 */
export function bufferedBody(req: IncomingMessage, limit: number): string | typeof TOO_LARGE | typeof NOT_BUFFERED {
  if (req.readableFlowing !== null || req.readableEncoding !== null) return NOT_BUFFERED;
  const length = req.readableLength;
  const declared = req.headers['content-length'];
  if (!req.complete && (declared === undefined || Number(declared) !== length)) return NOT_BUFFERED;
  if (length > limit) return TOO_LARGE;
  if (length === 0) return '';
  return (req.read(length) as Buffer).toString('utf8');
}
