import { digest } from '@latchkey/credentials';
import type { ClientSecretsTable } from '@latchkey/db';
import { describe, expect, it } from 'vitest';
import { matchSecret } from './client-secrets.service.ts';

const NOW = 1_800_000_000_000;
const row = (secret: string, id: string, expiresAt: number | null = null): ClientSecretsTable => ({
  id,
  client_id: 'lkc_x',
  secret_hash: digest(secret),
  last4: secret.slice(-4),
  created_at: NOW - 1000,
  expires_at: expiresAt,
  last_used_at: null,
});

/** Runs matchSecret with a comparison that records every pair it is asked to compare. */
function comparisons(rows: ClientSecretsTable[], presented: string) {
  const compared: string[] = [];
  const matched = matchSecret(rows, presented, NOW, (a, b) => {
    compared.push(b);
    return a === b;
  });
  return { matched: matched?.id, compared: compared.length };
}

describe('SR-06 every secret slot is compared, whichever matches', () => {
  const old = row('lks_old', 'cs_old');
  const next = row('lks_new', 'cs_new');

  it('SR-06 two comparisons whether the first, the second or neither secret matches, or the client has one or none', () => {
    expect(comparisons([old, next], 'lks_old')).toEqual({ matched: 'cs_old', compared: 2 });
    expect(comparisons([old, next], 'lks_new')).toEqual({ matched: 'cs_new', compared: 2 });
    expect(comparisons([old, next], 'lks_wrong')).toEqual({ matched: undefined, compared: 2 });
    expect(comparisons([old], 'lks_old')).toEqual({ matched: 'cs_old', compared: 2 });
    expect(comparisons([], 'lks_old')).toEqual({ matched: undefined, compared: 2 });
  });

  it('SR-06 SR-03 an expired secret is compared like a live one, then refused', () => {
    const expired = row('lks_old', 'cs_old', NOW);
    expect(comparisons([expired, next], 'lks_old')).toEqual({ matched: undefined, compared: 2 });
    expect(comparisons([row('lks_old', 'cs_old', NOW + 1), next], 'lks_old').matched).toBe('cs_old');
  });
});
