import type { RequestHandler } from 'express';
import { revokeTokenForClient } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { clientOf } from '../oauth-json/client-auth.middleware.ts';
import { paramsOf, parseParams } from '../oauth-json/oauth-params.ts';
import { revokeParams } from './revoke.schema.ts';

/**
 * RFC 7009 §2.1–2.2. Revoking either token of a pair revokes its whole grant. Unknown tokens
 * answer 200 (§2.2). A token that belongs to another client also answers 200 and is left
 * alone: §2.1 would have the server refuse it, but a distinct answer would tell the caller
 * that the value is a live token of someone else (RV-08), so the answer does not depend on
 * whose token it was. The answer is `{}` as JSON rather than an empty body: RFC 7009 allows
 * either, and client libraries that parse every answer as JSON (simple-oauth2, whose revokeAll() calls
 * it twice: CL-05) need the former (CL-01).
 */
export function revokeToken(deps: AuthDeps): RequestHandler {
  return async (_req, res) => {
    const { token } = parseParams(revokeParams, paramsOf(res));
    await revokeTokenForClient(deps.db, deps.clock, clientOf(res), token);
    res.status(200).json({});
  };
}
