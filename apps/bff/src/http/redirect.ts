import type { Response } from 'express';

/**
 * A 302 with no body (RF-02, OAuth 2.1 "Endpoint Content"): the browser follows the Location
 * and nothing of this response, such as the callback's address, is ever rendered.
 */
export function redirectTo(res: Response, location: string): void {
  res.status(302).location(location).end();
}
