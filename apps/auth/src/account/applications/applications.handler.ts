import type { Request, Response } from 'express';
import { toApplicationJson } from '@latchkey/contracts';
import { listAuthorizedApplications, revokeApplicationAccess } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { principalOf } from '../require-portal-token.middleware.ts';
import { accountActor } from '../account-actor.ts';

export function applicationsHandlers(deps: AuthDeps) {
  return {
    /** GET /account/applications: the third-party applications the user authorized, one entry each (AA-01). */
    async listApplications(_req: Request, res: Response): Promise<void> {
      const apps = await listAuthorizedApplications(deps.db, deps.clock, principalOf(res).userId);
      res.json(apps.map(toApplicationJson));
    },

    /**
     * POST /account/applications/:id/revoke: every grant and token of that client for this user,
     * and the consent, taken back (AA-02 to AA-05); a client the user has not authorized is 404 (AA-06).
     * AU-13: application.revoked in the user's log, with the browser's address.
     */
    async revokeApplication(req: Request, res: Response): Promise<void> {
      const app = await revokeApplicationAccess(
        deps.db,
        deps.clock,
        principalOf(res).userId,
        String(req.params.id),
        accountActor(req, res),
      );
      res.json(toApplicationJson(app));
    },
  };
}
