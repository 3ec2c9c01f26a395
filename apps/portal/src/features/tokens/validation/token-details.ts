import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from '@latchkey/contracts';

/**
 * A token's name and description as the portal checks them before sending, mirroring the
 * server's limits (packages/contracts) for instant feedback; the server's own refusal (invisible
 * characters and the like) is shown under the same field.
 */

export function validateTokenName(value: string): string | undefined {
  const name = value.trim();
  if (name.length === 0) return 'Enter a token name.';
  if (name.length > MAX_NAME_LENGTH) return `Use at most ${MAX_NAME_LENGTH} characters.`;
  return undefined;
}

/** TR-01: optional, at most MAX_DESCRIPTION_LENGTH characters; blank means none. */
export function validateTokenDescription(value: string): string | undefined {
  return value.trim().length > MAX_DESCRIPTION_LENGTH ? `Use at most ${MAX_DESCRIPTION_LENGTH} characters.` : undefined;
}
