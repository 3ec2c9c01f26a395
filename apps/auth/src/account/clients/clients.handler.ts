import type { Request, Response } from 'express';
import { createClient, findClient, listClients, NotFound, revokeClient, updateClient } from '@latchkey/core';
import { inSequence } from '@latchkey/http';
import type { AuthDeps } from '../../deps.ts';
import { accountActor } from '../account-actor.ts';
import { creationRateLimit } from '../creation-rate-limit.ts';
import { principalOf } from '../require-portal-token.middleware.ts';
import { validateBody } from '../validate-body.ts';
import { presentClient, presentCreatedClient } from './client.presenter.ts';
import { createClientBody, redirectUrisOf, updateClientBody } from './client.schema.ts';

export function clientsHandlers(deps: AuthDeps) {
  const limitCreations = creationRateLimit(deps);
  return {
    /** GET /account/clients: the user's clients, newest first, revoked ones included. */
    async listClients(_req: Request, res: Response): Promise<void> {
      const clients = await listClients(deps.db, principalOf(res).userId);
      res.json(clients.map(presentClient));
    },

    /**
     * POST /account/clients: registers a client; the secret is in this response only (TS-04),
     * and a public client gets none (PC-01). Its redirect URLs may use a private-use scheme,
     * a confidential client's may not (PC-05: core's rule, 400 naming the field).
     * HD-14: within the user's creation rate (429) and active-client cap (409 `limit_reached`).
     */
    createClient: inSequence([
      limitCreations,
      async function registerClient(req: Request, res: Response): Promise<void> {
        const body = validateBody(createClientBody, req.body);
        const uris = redirectUrisOf(body) ?? { redirectUris: [], redirectUrisField: 'redirect_uri' as const };
        const created = await createClient(
          deps.db,
          deps.clock,
          {
            ownerId: principalOf(res).userId,
            name: body.name,
            ...uris,
            postLogoutRedirectUri: body.post_logout_redirect_uri,
            description: body.description,
            clientUri: body.client_uri,
            policyUri: body.policy_uri,
            tosUri: body.tos_uri,
            public: body.public,
            idTokenAlg: body.id_token_signed_response_alg,
            // DV-24: the client opts in to the device grant.
            deviceGrant: body.device_grant,
            maxActive: deps.config.limits.maxClientsPerUser,
          },
          // AU-12: client.created in the user's log, with the browser's address.
          accountActor(req, res),
        );
        res.status(201).json(presentCreatedClient(created));
      },
    ]),

    /** GET /account/clients/:id: one of the user's clients; anyone else's is 404. */
    async getClient(req: Request, res: Response): Promise<void> {
      const client = await findClient(deps.db, String(req.params.id));
      if (!client || client.ownerId !== principalOf(res).userId) throw new NotFound('No such client.');
      res.json(presentClient(client));
    },

    /**
     * PATCH /account/clients/:id: edits the fields sent (CE-01), validated as at creation; a bad
     * one is 400 naming it and nothing changes. Another user's client is 404 (CE-05).
     */
    async updateClient(req: Request, res: Response): Promise<void> {
      const body = validateBody(updateClientBody, req.body);
      const client = await updateClient(
        deps.db,
        String(req.params.id),
        principalOf(res).userId,
        {
          name: body.name,
          ...redirectUrisOf(body),
          postLogoutRedirectUri: body.post_logout_redirect_uri,
          description: body.description,
          clientUri: body.client_uri,
          policyUri: body.policy_uri,
          tosUri: body.tos_uri,
          idTokenAlg: body.id_token_signed_response_alg,
          deviceGrant: body.device_grant,
        },
        // AU-12: client.edited in the user's log.
        accountActor(req, res),
        deps.clock,
      );
      res.json(presentClient(client));
    },

    /**
     * POST /account/clients/:id/revoke: every token the client ever issued stops working, for
     * every user (RV-03). Another user's client is 404, not 403, so ids cannot be probed.
     */
    async revokeClient(req: Request, res: Response): Promise<void> {
      // AU-12: client.revoked in the user's log.
      const client = await revokeClient(
        deps.db,
        deps.clock,
        String(req.params.id),
        principalOf(res).userId,
        accountActor(req, res),
      );
      res.json(presentClient(client));
    },
  };
}
