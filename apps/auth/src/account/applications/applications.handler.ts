import type { Request, Response } from 'express';
import type { ApplicationJson } from '@latchkey/contracts';
import { listAuthorizedApplications, revokeApplicationAccess, type AuthorizedApplication } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { principalOf } from '../require-portal-token.middleware.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

export function presentApplication(app: AuthorizedApplication): ApplicationJson {
  return {
    client_id: app.clientId,
    name: app.name,
    owner_name: app.ownerName,
    first_authorized_at: iso(app.firstAuthorizedAt),
    last_used_at: app.lastUsedAt === null ? null : iso(app.lastUsedAt),
    active_grants: app.activeGrants,
  };
}

export function applicationsHandlers(deps: AuthDeps) {
  return {
    /** GET /account/applications: the third-party applications the user authorized, one entry each (AA-01). */
    async listApplications(_req: Request, res: Response): Promise<void> {
      const apps = await listAuthorizedApplications(deps.db, deps.clock, principalOf(res).userId);
      res.json(apps.map(presentApplication));
    },

    /**
     * POST /account/applications/:id/revoke: every grant and token of that client for this user,
     * and the consent, taken back (AA-02 to AA-05); a client the user has not authorized is 404 (AA-06).
     */
    async revokeApplication(req: Request, res: Response): Promise<void> {
      const app = await revokeApplicationAccess(deps.db, deps.clock, principalOf(res).userId, String(req.params.id));
      res.json(presentApplication(app));
    },
  };
}
