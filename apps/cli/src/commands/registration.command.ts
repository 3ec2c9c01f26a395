import type { Command } from '../command.ts';
import { UsageError } from '../usage-error.ts';

export const REGISTRATION_USAGE = {
  tokenCreate: 'registration token create [--label <text>] [--expires-in <days>]',
  tokenList: 'registration token list',
  tokenRevoke: 'registration token revoke <id>',
} as const;

/**
 * DR-*: the initial access tokens that open POST /oauth/register when
 * DYNAMIC_CLIENT_REGISTRATION=token (RFC 7591 §3). Shown once; only the digest is kept.
 */
export function parseRegistrationCommand(action: string | undefined, _args: string[]): Command {
  throw new UsageError(
    `unknown registration command ${JSON.stringify(action ?? '')}; usage: ${Object.values(REGISTRATION_USAGE).join(' | ')}`,
  );
}
