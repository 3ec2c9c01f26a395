import { createPersonalAccessToken, listAllTokens, presentAdminToken, revokeAccessToken } from '@latchkey/core';
import {
  isScope,
  MAX_TOKEN_LIFETIME_DAYS,
  THIRD_PARTY_SCOPES,
  type Scope,
} from '@latchkey/contracts';
import type { Command } from '../command.ts';
import { optionalOption, parseOptions, repeatedOption, requireOption } from '../parse-options.ts';
import { UsageError } from '../usage-error.ts';
import { requireOwner } from '../require-owner.ts';

export const TOKEN_USAGE = {
  create: `token create --owner <email> --name <name> [--expires-in-days <N>] [--scope <${THIRD_PARTY_SCOPES.join('|')}>]...`,
  list: 'token list --owner <email>',
  revoke: 'token revoke <id>',
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;
function parseDays(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const days = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(days >= 1 && days <= MAX_TOKEN_LIFETIME_DAYS)) {
    throw new UsageError(
      `--expires-in-days must be a whole number from 1 to ${MAX_TOKEN_LIFETIME_DAYS} (usage: ${TOKEN_USAGE.create})`,
    );
  }
  return days;
}

/** SC-07: `--scope`, repeatable; every third-party scope when absent. Core refuses `account`. */
function parseScopes(values: string[] | undefined): Scope[] | undefined {
  const unknown = values?.filter((value) => !isScope(value)) ?? [];
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown scope ${unknown.map((name) => JSON.stringify(name)).join(', ')} (expected ${THIRD_PARTY_SCOPES.join(' or ')}; usage: ${TOKEN_USAGE.create})`,
    );
  }
  return values as Scope[] | undefined;
}

export function parseTokenCommand(action: string | undefined, args: string[]): Command {
  switch (action) {
    case 'create': {
      const parsed = parseOptions(
        args,
        {
          owner: { type: 'string' },
          name: { type: 'string' },
          'expires-in-days': { type: 'string' },
          scope: { type: 'string', multiple: true },
        },
        TOKEN_USAGE.create,
      );
      const ownerEmail = requireOption(parsed, 'owner', TOKEN_USAGE.create);
      const name = requireOption(parsed, 'name', TOKEN_USAGE.create);
      const days = parseDays(optionalOption(parsed, 'expires-in-days'));
      const scopes = parseScopes(repeatedOption(parsed, 'scope'));
      return {
        // The value is printed once here; only its SHA-256 digest and last four characters are stored (DD-3).
        run: async (context) => {
          const owner = await requireOwner(context, ownerEmail);
          // One instant for creation and expiry, so `--expires-in-days 30` is exactly 30 days.
          const now = context.clock.now();
          const clock = { now: () => now };
          const created = await createPersonalAccessToken(context.db, clock, context.config.tokenTtlSeconds, {
            userId: owner.id,
            name,
            ...(days === undefined ? {} : { expiresAt: now + days * DAY_MS }),
            scopes,
          });
          return { token: created.token, ...presentAdminToken(created.summary), owner_email: owner.email };
        },
      };
    }
    case 'list': {
      const parsed = parseOptions(args, { owner: { type: 'string' } }, TOKEN_USAGE.list);
      const ownerEmail = requireOption(parsed, 'owner', TOKEN_USAGE.list);
      return {
        run: async (context) => {
          const owner = await requireOwner(context, ownerEmail);
          return (await listAllTokens(context.db, context.clock, owner.id)).map(presentAdminToken);
        },
      };
    }
    case 'revoke': {
      const [id] = parseOptions(args, {}, TOKEN_USAGE.revoke, 1).positionals as [string];
      return {
        // Revoking an OAuth access token revokes its grant, refresh token included (RV-02). Idempotent (RV-07).
        run: async (context) => presentAdminToken(await revokeAccessToken(context.db, context.clock, id)),
      };
    }
    default:
      throw new UsageError(`unknown token command ${JSON.stringify(action ?? '')} (expected create, list or revoke)`);
  }
}
