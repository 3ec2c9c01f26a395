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
