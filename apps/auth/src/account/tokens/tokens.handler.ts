import type { Request, Response } from 'express';
import {
  createPersonalAccessToken,
  listTokensForUser,
  presentCreatedToken,
  presentToken,
  revokeAccessToken,
  rollPersonalAccessToken,
  updatePersonalAccessToken,
} from '@latchkey/core';
import { inSequence } from '@latchkey/http';
import type { AuthDeps } from '../../deps.ts';
import { creationRateLimit } from '../creation-rate-limit.ts';
import { accountActor } from '../account-actor.ts';
import { principalOf } from '../require-portal-token.middleware.ts';
import { validateBody } from '../validate-body.ts';
import { daysFrom } from './token-expiry.ts';
import { createTokenBody, rollTokenBody, updateTokenBody } from './token.schema.ts';

export function tokensHandlers(deps: AuthDeps) {
  const limitCreations = creationRateLimit(deps);
  return {
    /**
     * GET /account/tokens: the user's PATs (active, expired and revoked) and the live access
     * tokens of applications they authorized, with last-used times.
     */
    async listTokens(_req: Request, res: Response): Promise<void> {
      const tokens = await listTokensForUser(deps.db, deps.clock, principalOf(res).userId);
      res.json(tokens.map(presentToken));
    },

    /**
     * POST /account/tokens: a new PAT; its value is in this response only (TS-04).
     * HD-14: within the user's creation rate (429) and active-token cap (409 `limit_reached`).
     */
    createToken: inSequence([
      limitCreations,
      async function createPat(req: Request, res: Response): Promise<void> {
        const body = validateBody(createTokenBody, req.body);
        const expiresAt =
          body.expires_in_days !== undefined ? daysFrom(deps.clock.now(), body.expires_in_days) : body.expires_at;
        const created = await createPersonalAccessToken(deps.db, deps.clock, deps.config.tokenTtlSeconds, {
          userId: principalOf(res).userId,
          name: body.name,
          description: body.description,
          ...(expiresAt === undefined ? {} : { expiresAt }),
          maxActive: deps.config.limits.maxTokensPerUser,
          scopes: body.scopes,
          actor: accountActor(req, res),
        });
        res.status(201).json(presentCreatedToken(created));
      },
    ]),

    /**
     * PATCH /account/tokens/:id (TR-02): a personal access token's name or description; its value,
     * scopes and expiry never change. Another user's token, or an unknown id, is 404.
     */
    async updateToken(req: Request, res: Response): Promise<void> {
      const body = validateBody(updateTokenBody, req.body);
      const token = await updatePersonalAccessToken(
        deps.db,
        deps.clock,
        String(req.params.id),
        body,
        principalOf(res).userId,
        accountActor(req, res),
      );
      res.json(presentToken(token));
    },

    /**
     * POST /account/tokens/:id/roll (TR-03): a new value (in this answer only) with the token's
     * name, description, scopes and lifetime; the old one works for the chosen overlap. A revoked,
     * expired or already rolled token is 400 (TR-04); another user's, 404. Counted as a creation (HD-14).
     */
    rollToken: inSequence([
      limitCreations,
      async function rollPat(req: Request, res: Response): Promise<void> {
        const body = validateBody(rollTokenBody, req.body ?? {});
        const rolled = await rollPersonalAccessToken(
          deps.db,
          deps.clock,
          String(req.params.id),
          body.overlap,
          principalOf(res).userId,
          accountActor(req, res),
        );
        res.status(201).json(presentCreatedToken(rolled));
      },
    ]),

    /**
     * POST /account/tokens/:id/revoke: the token is refused from the next request on (RV-01);
     * an OAuth access token takes its grant, and so its refresh token, with it (RV-02).
     * Revoking again is a no-op answered 200 (RV-07); another user's token is 404.
     */
    async revokeToken(req: Request, res: Response): Promise<void> {
      const token = await revokeAccessToken(
        deps.db,
        deps.clock,
        String(req.params.id),
        principalOf(res).userId,
        accountActor(req, res),
      );
      res.json(presentToken(token));
    },
  };
}
