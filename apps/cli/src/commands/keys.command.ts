import {
  ensureSigningKeys,
  listSigningKeys,
  rotateSigningKeys,
  signingKeySealer,
  type SigningKeyInfo,
} from '@latchkey/core';
import type { CliContext, Command } from '../command.ts';
import { optionalOption, parseOptions } from '../parse-options.ts';
import { UsageError } from '../usage-error.ts';

const HOUR_MS = 60 * 60 * 1000;

/**
 * OI-10: how long a new key is published before it signs. `1h` (the default) covers verifiers
 * that cache the JWKS; longer for ones known to cache longer; `0` is the emergency rotation (a
 * key thought compromised stops signing at once; verifiers that cached the old set fetch it
 * again on meeting the unknown `kid`).
 */
const DELAYS: Readonly<Record<string, number>> = { '0': 0, '1h': HOUR_MS, '6h': 6 * HOUR_MS, '24h': 24 * HOUR_MS };

export const KEYS_USAGE = {
  list: 'keys list',
  rotate: `keys rotate [--delay <${Object.keys(DELAYS).join('|')}>]`,
} as const;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A key as operators see it: never key material, public or private. */
function presentKey(key: SigningKeyInfo) {
  return {
    kid: key.kid,
    alg: key.alg,
    status: key.status,
    created_at: iso(key.createdAt),
    signs_from: iso(key.signsFrom),
    retired_at: iso(key.retiredAt),
  };
}

/** The sealer the servers use (SESSION_SECRET), and the keys they would create on start (OI-09). */
async function withKeys(context: CliContext) {
  const sealer = signingKeySealer(context.config.sessionSecret);
  await ensureSigningKeys(context.db, context.clock, sealer);
  return sealer;
}

export function parseKeysCommand(action: string | undefined, args: string[]): Command {
  switch (action) {
    case 'list': {
      parseOptions(args, {}, KEYS_USAGE.list);
      return {
        run: async (context) => {
          await withKeys(context);
          return (await listSigningKeys(context.db, context.clock)).map(presentKey);
        },
      };
    }
    case 'rotate': {
      const parsed = parseOptions(args, { delay: { type: 'string' } }, KEYS_USAGE.rotate);
      const delay = optionalOption(parsed, 'delay') ?? '1h';
      const delayMs = Object.hasOwn(DELAYS, delay) ? DELAYS[delay] : undefined;
      if (delayMs === undefined) {
        throw new UsageError(`--delay must be one of ${Object.keys(DELAYS).join(', ')} (usage: ${KEYS_USAGE.rotate})`);
      }
      return {
        // The servers see the new keys within a minute (their key ring's reload), well inside the delay.
        run: async (context) => {
          const sealer = await withKeys(context);
          const added = await rotateSigningKeys(context.db, context.clock, sealer, { delayMs });
          return {
            rotated: added.map(presentKey),
            keys: (await listSigningKeys(context.db, context.clock)).map(presentKey),
          };
        },
      };
    }
    default:
      throw new UsageError(`unknown keys command ${JSON.stringify(action ?? '')} (expected list or rotate)`);
  }
}
