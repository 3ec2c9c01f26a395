import { listAuthorizedApplications, revokeApplicationAccess } from '@latchkey/core';
import { toApplicationJson } from '@latchkey/contracts';
import type { Command } from '../command.ts';
import { parseOptions, requireOption } from '../parse-options.ts';
import { requireOwner } from '../require-owner.ts';
import { UsageError } from '../usage-error.ts';

export const GRANT_USAGE = {
  list: 'grant list --owner <email>',
  revoke: 'grant revoke --owner <email> --client <client_id>',
} as const;

/** The applications a user authorized, one entry each, and Revoke access (AA-08). */
export function parseGrantCommand(action: string | undefined, args: string[]): Command {
  switch (action) {
    case 'list': {
      const parsed = parseOptions(args, { owner: { type: 'string' } }, GRANT_USAGE.list);
      const ownerEmail = requireOption(parsed, 'owner', GRANT_USAGE.list);
      return {
        run: async (context) => {
          const owner = await requireOwner(context, ownerEmail);
          return (await listAuthorizedApplications(context.db, context.clock, owner.id)).map(toApplicationJson);
        },
      };
    }
    case 'revoke': {
      const parsed = parseOptions(args, { owner: { type: 'string' }, client: { type: 'string' } }, GRANT_USAGE.revoke);
      const ownerEmail = requireOption(parsed, 'owner', GRANT_USAGE.revoke);
      const clientId = requireOption(parsed, 'client', GRANT_USAGE.revoke);
      return {
        // Every grant, token and pending code of the client for this user, and the consent (AA-02 to AA-05).
        run: async (context) => {
          const owner = await requireOwner(context, ownerEmail);
          return toApplicationJson(await revokeApplicationAccess(context.db, context.clock, owner.id, clientId));
        },
      };
    }
    default:
      throw new UsageError(`unknown grant command ${JSON.stringify(action ?? '')} (expected list or revoke)`);
  }
}
