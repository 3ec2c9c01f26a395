import type { Request } from 'express';
import type { RequestOrigin } from '@latchkey/core';

/** AU-04: where a request came from, for the security log: its address under TRUST_PROXY and its User-Agent. */
export function originOf(req: Request): RequestOrigin {
  return { ip: req.ip ?? null, userAgent: req.headers['user-agent'] ?? null };
}
