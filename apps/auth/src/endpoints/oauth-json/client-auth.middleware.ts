import type { RequestHandler, Response } from 'express';
import { authenticateClient, authenticatePublicClient, InvalidClient, type Client } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { credentialsOf } from './client-credentials.ts';

const CLIENT = 'oauthClient';
const FAILURE = 'oauthClientFailure';

/**
 * Client authentication (RFC 6749 §2.3.1, §3.2.1), step 1: checks the credentials and keeps
 * the outcome for the steps after it. Missing credentials, or half of them (TK-09), an unknown
 * client, a wrong secret and a revoked client all end as the same `invalid_client` (CA-02, TK-10);
 * core does the same work for the last three and compares digests in constant time (CA-08). So a
 * code or refresh token of a revoked client fails here, before its grant is read (AC-08, RT-08,
 * TK-RF-03). A `client_id` with no secret (method `none`) authenticates a public client only
 * (PC-03): a confidential client that leaves its secret out fails as if the secret were wrong. A
 * public client that sends a secret fails too (PC-04): it has none, so the sender is not that app.
 * An outage is thrown at once (503, D-10), a bug too (500). The failure is answered only by
 * `requireAuthenticatedClient`, after the per-client failure limit has seen whether these
 * credentials were right (HD-01).
 */
export function checkClientCredentials(deps: AuthDeps): RequestHandler {
  return async (_req, res, next) => {
    const { clientId, clientSecret } = credentialsOf(res) ?? {};
    try {
      if (clientId === undefined) throw new InvalidClient('Client authentication failed.');
      res.locals[CLIENT] =
        clientSecret === undefined // method `none`
          ? await authenticatePublicClient(deps.db, clientId)
          : await authenticateClient(deps.db, clientId, clientSecret, deps.clock);
    } catch (err) {
      if (!(err instanceof InvalidClient)) throw err;
      res.locals[FAILURE] = err;
    }
    next();
  };
}

/** Whether this request's client credentials were correct (checkClientCredentials ran). */
export function hasAuthenticatedClient(res: Response): boolean {
  return res.locals[CLIENT] !== undefined;
}

/** Step 2: a request whose client did not authenticate ends here with `invalid_client` (401). */
export const requireAuthenticatedClient: RequestHandler = (_req, res, next) => {
  if (!hasAuthenticatedClient(res)) {
    throw (res.locals[FAILURE] as InvalidClient | undefined) ?? new InvalidClient('Client authentication failed.');
  }
  next();
};

export function clientOf(res: Response): Client {
  const client = res.locals[CLIENT] as Client | undefined;
  if (!client) throw new Error('checkClientCredentials and requireAuthenticatedClient must run before this step');
  return client;
}
