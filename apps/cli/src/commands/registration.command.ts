import { MAX_TOKEN_LIFETIME_DAYS } from '@latchkey/contracts';
import {
  createRegistrationToken,
  listRegistrationTokens,
  revokeRegistrationToken,
  type RegistrationToken,
} from '@latchkey/core';
import type { Command } from '../command.ts';
import { optionalOption, parseOptions } from '../parse-options.ts';
import { UsageError } from '../usage-error.ts';

export const REGISTRATION_USAGE = {
  tokenCreate: 'registration token create [--label <text>] [--expires-in <days>]',
  tokenList: 'registration token list',
  tokenRevoke: 'registration token revoke <id>',
} as const;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** An initial access token as operators see it: never the value, only its last four characters. */
function presentRegistrationToken(token: RegistrationToken) {
  return {
    id: token.id,
    label: token.label,
    last4: token.last4,
    status: token.status,
    created_at: iso(token.createdAt),
    expires_at: iso(token.expiresAt),
    revoked_at: iso(token.revokedAt),
  };
}

function parseDays(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const days = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(days >= 1 && days <= MAX_TOKEN_LIFETIME_DAYS)) {
    throw new UsageError(
      `--expires-in must be a whole number of days from 1 to ${MAX_TOKEN_LIFETIME_DAYS} (usage: ${REGISTRATION_USAGE.tokenCreate})`,
    );
  }
  return days;
}

function parseTokenAction(action: string | undefined, args: string[]): Command {
  switch (action) {
    case 'create': {
      const parsed = parseOptions(
        args,
        { label: { type: 'string' }, 'expires-in': { type: 'string' } },
        REGISTRATION_USAGE.tokenCreate,
      );
      const label = optionalOption(parsed, 'label');
      const expiresInDays = parseDays(optionalOption(parsed, 'expires-in'));
      return {
        // DR-07, DR-17: the value is printed once here; only its SHA-256 digest and last four characters are stored.
        run: async (context) => {
          const created = await createRegistrationToken(context.db, context.clock, { label, expiresInDays });
          return { ...presentRegistrationToken(created), token: created.token };
        },
      };
    }
    case 'list': {
      parseOptions(args, {}, REGISTRATION_USAGE.tokenList);
      return {
        run: async (context) => (await listRegistrationTokens(context.db, context.clock)).map(presentRegistrationToken),
      };
    }
    case 'revoke': {
      const [id] = parseOptions(args, {}, REGISTRATION_USAGE.tokenRevoke, 1).positionals as [string];
      return {
        // DR-08: registrations with it are refused from now on; clients it registered stay.
        run: async (context) => presentRegistrationToken(await revokeRegistrationToken(context.db, context.clock, id)),
      };
    }
    default:
      throw new UsageError(
        `unknown registration token command ${JSON.stringify(action ?? '')} (expected create, list or revoke)`,
      );
  }
}

/**
 * DR-07, DR-08: the initial access tokens that open POST /oauth/register when
 * DYNAMIC_CLIENT_REGISTRATION=token (RFC 7591 §3). Shown once; only the digest is kept.
 */
export function parseRegistrationCommand(action: string | undefined, args: string[]): Command {
  if (action === 'token') {
    const [tokenAction, ...rest] = args;
    return parseTokenAction(tokenAction, rest);
  }
  throw new UsageError(
    `unknown registration command ${JSON.stringify(action ?? '')}; usage: ${Object.values(REGISTRATION_USAGE).join(' | ')}`,
  );
}
