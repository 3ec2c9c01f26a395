import type { Request, Response } from 'express';
import { SECRET_EXPIRIES } from '@latchkey/contracts';
import {
  createClientSecret,
  deleteClientSecret,
  listClientSecrets,
  presentClientSecret,
  presentCreatedClientSecret,
} from '@latchkey/core';
import { inSequence } from '@latchkey/http';
import type { AuthDeps } from '../../deps.ts';
import { accountActor } from '../account-actor.ts';
import { creationRateLimit } from '../creation-rate-limit.ts';
import { principalOf } from '../require-portal-token.middleware.ts';
import { validateBody } from '../validate-body.ts';
import { createClientSecretBody } from './client-secret.schema.ts';

/**
 * A client's secrets (SR-*), for its owner only: core answers 404 for anyone else's client and
 * the portal's own (SR-08), so ids cannot be probed, and 409 when a revoked or public client's
 * secrets would change.
 */
export function clientSecretsHandlers(deps: AuthDeps) {
  const limitCreations = creationRateLimit(deps);
  return {
    /** GET /account/clients/:id/secrets: SR-05, the live secrets, oldest first, never their values. */
    async listSecrets(req: Request, res: Response): Promise<void> {
      const secrets = await listClientSecrets(deps.db, deps.clock, String(req.params.id), principalOf(res).userId);
      res.json(secrets.map(presentClientSecret));
    },

    /**
     * POST /account/clients/:id/secrets: SR-01, a new secret, in this response only; the one in
     * use keeps working until deleted, or until `old_secret_expires_in` (SR-03). SR-02: a third
     * is 400 `limit_reached`. A secret is a credential: its creation draws on the same per-user
     * allowance as clients and tokens (HD-14, 429).
     */
    createSecret: inSequence([
      limitCreations,
      async function generateSecret(req: Request, res: Response): Promise<void> {
        const body = validateBody(createClientSecretBody, req.body);
        const expiresIn = body.old_secret_expires_in;
        // AU-12: client.secret_created in the user's log (the secret's id, never its value).
        const created = await createClientSecret(
          deps.db,
          deps.clock,
          String(req.params.id),
          principalOf(res).userId,
          { oldSecretExpiresInMs: expiresIn === undefined ? undefined : SECRET_EXPIRIES[expiresIn] },
          accountActor(req, res),
        );
        res.status(201).json(presentCreatedClientSecret(created));
      },
    ]),

    /**
     * POST /account/clients/:id/secrets/:secretId/delete: SR-04, the next request with it gets
     * `invalid_client`; the last secret cannot be deleted (409). Answers the secrets left.
     */
    async deleteSecret(req: Request, res: Response): Promise<void> {
      const secrets = await deleteClientSecret(
        deps.db,
        deps.clock,
        String(req.params.id),
        String(req.params.secretId),
        principalOf(res).userId,
        // AU-12: client.secret_deleted in the user's log.
        accountActor(req, res),
      );
      res.json(secrets.map(presentClientSecret));
    },
  };
}
