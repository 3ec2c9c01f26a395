import type { RequestHandler, Response } from 'express';
import { authenticateClient as authenticateClientSecret, InvalidClient, type Client } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { callCore } from './call-core.ts';
import { credentialsOf } from './client-credentials.ts';

const CLIENT = 'oauthClient';

/**
 * Client authentication (RFC 6749 §2.3.1, §3.2.1). Missing credentials, an unknown client, a
 * wrong secret and a revoked client all end as the same `invalid_client` (CA-02); core does
 * the same work for the last three and compares digests in constant time (CA-08).
 */
export function authenticateClient(deps: AuthDeps): RequestHandler {
  return async (_req, res, next) => {
    const credentials = credentialsOf(res);
    const clientId = credentials?.clientId;
    const clientSecret = credentials?.clientSecret;
    if (clientId === undefined || clientSecret === undefined) throw new InvalidClient('Client authentication failed.');
    res.locals[CLIENT] = await callCore(() => authenticateClientSecret(deps.db, clientId, clientSecret));
    next();
  };
}

export function clientOf(res: Response): Client {
  const client = res.locals[CLIENT] as Client | undefined;
  if (!client) throw new Error('authenticateClient must run before this step');
  return client;
}
