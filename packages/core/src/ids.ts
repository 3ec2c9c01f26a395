import { randomBase62 } from '@latchkey/credentials';

/**
 * Public identifiers: a kind prefix and 20 base62 characters. Client ids have their own
 * prefix so they cannot collide with user ids (P-06, RFC 9700 §4.15).
 */
export const IdPrefix = {
  user: 'usr',
  client: 'lkc',
  clientSecret: 'cs',
  grant: 'grt',
  code: 'cod',
  accessToken: 'tok',
  refreshToken: 'rft',
  resourceServer: 'rs',
} as const;
export type IdPrefix = (typeof IdPrefix)[keyof typeof IdPrefix];

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(prefix === IdPrefix.client ? 24 : 20)}`;
}
