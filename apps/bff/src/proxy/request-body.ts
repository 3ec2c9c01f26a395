import type { IncomingMessage } from 'node:http';
import { PayloadTooLarge, UnreadableRequest } from '../http/bff.errors.ts';

/**
 * Proxied request bodies stop here: above the API's own limit (100 KiB), so the upstream
 * decides and answers in its own words. The Express routes give this to body-parser; the
 * /bff/graphql fast path to readRequestBody.
 */
export const BODY_LIMIT_BYTES = 128 * 1024;

/**
 * The body of a request whose Content-Encoding is none (the fast path leaves encoded bodies
 * to body-parser), as bytes, forwarded unchanged; undefined when empty. A declared or actual
 * length above `limit` is refused before anything is forwarded, as body-parser refuses it.
 */
export function readRequestBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    return Promise.reject(new PayloadTooLarge('The request body is too large.'));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // The rest is read off and dropped, as body-parser does, so the connection stays usable.
        req.off('data', onData);
        req.resume();
        reject(new PayloadTooLarge('The request body is too large.'));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => {
      if (size === 0) resolve(undefined);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    req.once('close', () => {
      if (!req.complete) reject(new UnreadableRequest('The request could not be read.'));
    });
    req.on('error', (err) => reject(new UnreadableRequest('The request could not be read.', { cause: err })));
  });
}
