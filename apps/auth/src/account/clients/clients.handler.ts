import type { Request, Response } from 'express';
import { createClient, listClients, revokeClient } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { principalOf } from '../require-portal-token.middleware.ts';
import { validateBody } from '../validate-body.ts';
import { presentClient, presentCreatedClient } from './client.presenter.ts';
import { createClientBody } from './client.schema.ts';

export function clientsHandlers(deps: AuthDeps) {
  return {
    /** GET /account/clients: the user's clients, newest first, revoked ones included. */
    async listClients(_req: Request, res: Response): Promise<void> {
      const clients = await listClients(deps.db, principalOf(res).userId);
      res.json(clients.map(presentClient));
    },

    /** POST /account/clients: registers a client; the secret is in this response only (TS-04). */
    async createClient(req: Request, res: Response): Promise<void> {
      const body = validateBody(createClientBody, req.body);
      const created = await createClient(deps.db, deps.clock, {
        ownerId: principalOf(res).userId,
        name: body.name,
        redirectUri: body.redirect_uri,
        postLogoutRedirectUri: body.post_logout_redirect_uri,
      });
      res.status(201).json(presentCreatedClient(created));
    },

    /**
     * POST /account/clients/:id/revoke: every token the client ever issued stops working, for
     * every user (RV-03). Another user's client is 404, not 403, so ids cannot be probed.
     */
    async revokeClient(req: Request, res: Response): Promise<void> {
      const client = await revokeClient(deps.db, deps.clock, String(req.params.id), principalOf(res).userId);
      res.json(presentClient(client));
    },
  };
}
