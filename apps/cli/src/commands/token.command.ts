import {
  createPersonalAccessToken,
  listAllTokens,
  presentAdminToken,
  revokeAccessToken,
  rollPersonalAccessToken,
  updatePersonalAccessToken,
} from '@latchkey/core';
import {
  DEFAULT_ROLL_OVERLAP,
  isRollOverlap,
  isScope,
  MAX_TOKEN_LIFETIME_DAYS,
  ROLL_OVERLAPS,
  THIRD_PARTY_SCOPES,
  type RollOverlap,
  type Scope,
} from '@latchkey/contracts';
import type { Command } from '../command.ts';
import { optionalOption, parseOptions, repeatedOption, requireOption } from '../parse-options.ts';
import { UsageError } from '../usage-error.ts';
import { requireOwner } from '../require-owner.ts';

export const TOKEN_USAGE = {
  create: `token create --owner <email> --name <name> [--description <text>] [--expires-in-days <N>] [--scope <${THIRD_PARTY_SCOPES.join('|')}>]...`,
  list: 'token list --owner <email>',
  update: 'token update <id> [--name <name>] [--description <text>]',
  roll: `token roll <id> [--overlap ${Object.keys(ROLL_OVERLAPS).join('|')}]`,
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

/** TR-11: `--overlap`, how long the old value keeps working after a roll (TR-03); `none` when absent. */
function parseOverlap(value: string | undefined): RollOverlap {
  if (value === undefined) return DEFAULT_ROLL_OVERLAP;
  if (isRollOverlap(value)) return value;
  throw new UsageError(`--overlap must be ${Object.keys(ROLL_OVERLAPS).join(', ')} (usage: ${TOKEN_USAGE.roll})`);
}

export function parseTokenCommand(action: string | undefined, args: string[]): Command {
  switch (action) {
    case 'create': {
      const parsed = parseOptions(
        args,
        {
          owner: { type: 'string' },
          name: { type: 'string' },
          description: { type: 'string' },
          'expires-in-days': { type: 'string' },
          scope: { type: 'string', multiple: true },
        },
        TOKEN_USAGE.create,
      );
      const ownerEmail = requireOption(parsed, 'owner', TOKEN_USAGE.create);
      const name = requireOption(parsed, 'name', TOKEN_USAGE.create);
      // TR-01, TR-11: optional; core checks its length and characters.
      const description = optionalOption(parsed, 'description');
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
            description,
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
    case 'update': {
      const parsed = parseOptions(
        args,
        { name: { type: 'string' }, description: { type: 'string' } },
        TOKEN_USAGE.update,
        1,
      );
      const [id] = parsed.positionals as [string];
      const change = { name: optionalOption(parsed, 'name'), description: optionalOption(parsed, 'description') };
      if (change.name === undefined && change.description === undefined) {
        throw new UsageError(`nothing to change (usage: ${TOKEN_USAGE.update})`);
      }
      return {
        // TR-11 (TR-02 for operators): any user's personal access token; `--description ''` clears it.
        // Its value, scopes and expiry stay as they are.
        run: async (context) =>
          presentAdminToken(await updatePersonalAccessToken(context.db, context.clock, id, change)),
      };
    }
    case 'roll': {
      const parsed = parseOptions(args, { overlap: { type: 'string' } }, TOKEN_USAGE.roll, 1);
      const [id] = parsed.positionals as [string];
      const overlap = parseOverlap(optionalOption(parsed, 'overlap'));
      return {
        // TR-11 (TR-03): the new value is printed once here, with the new id; `previous` is the old
        // token, which works until its expires_at (the overlap's end) or is revoked now (`none`).
        // TR-04: a revoked, expired or already rolled token, or an application's, is refused (exit 1).
        run: async (context) => {
          const rolled = await rollPersonalAccessToken(context.db, context.clock, id, overlap);
          return {
            token: rolled.token,
            ...presentAdminToken(rolled.summary),
            previous: presentAdminToken(rolled.previous),
          };
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
      throw new UsageError(
        `unknown token command ${JSON.stringify(action ?? '')} (expected create, list, update, roll or revoke)`,
      );
  }
}
