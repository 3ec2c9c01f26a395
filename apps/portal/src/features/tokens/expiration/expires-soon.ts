import { expiresSoon } from '@latchkey/contracts';
import { formatRelativeTime } from '../../../lib/format-relative-time.ts';
import type { AccessToken } from '../api/get-tokens.ts';

type Dated = Pick<AccessToken, 'name' | 'status' | 'created_at' | 'expires_at' | 'replaced_by'>;

/**
 * TR-09: the list marks a token "Expires soon" by the one rule of packages/contracts
 * (`expiresSoon`: less than a fifth of its lifetime and at most 7 days left), so a new 7-day
 * token is not marked and a year-long one is a week before. A rolled token in its overlap is
 * not: it was replaced, and the new one is what to keep working.
 */
export function tokenExpiresSoon(token: Dated, now: number): boolean {
  if (token.status !== 'active' || token.replaced_by !== null) return false;
  return expiresSoon(Date.parse(token.created_at), Date.parse(token.expires_at), now);
}

const list = new Intl.ListFormat(undefined, { type: 'conjunction' });

/**
 * TR-10: the tokens page's banner, naming each token that expires soon and when:
 * "1 token expires soon: deploy (in 3 days). Roll it to keep it working."; undefined when none does.
 */
export function expiringSoonMessage(tokens: readonly Dated[], now: number): string | undefined {
  const soon = tokens.filter((token) => tokenExpiresSoon(token, now));
  if (soon.length === 0) return undefined;
  const named = list.format(soon.map((token) => `${token.name} (${formatRelativeTime(token.expires_at, now)})`));
  return soon.length === 1
    ? `1 token expires soon: ${named}. Roll it to keep it working.`
    : `${soon.length} tokens expire soon: ${named}. Roll them to keep them working.`;
}
