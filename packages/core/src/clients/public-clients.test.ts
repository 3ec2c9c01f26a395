// Issue 29: registering a public client (PC-01) and the redirect URLs only it may use: private-use
// URI schemes (RFC 8252 §7.1, PC-05). Over a real database (SQLite; PostgreSQL in node-pg).
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#test/support/test-database.ts';
import { perFile } from '#test/support/per-file.ts';
import { ManualClock } from '../clock.ts';
import { ValidationFailed } from '../errors.ts';
import { createUser } from '../users/users.service.ts';
import { createClient } from './clients.service.ts';

const clock = new ManualClock(Date.UTC(2026, 0, 1));
const db = useTestDatabase();
const { owner } = perFile(async () => ({
  owner: await createUser(db, clock, { email: 'ada@example.test', password: 'quiet lantern meadow', name: 'Ada' }),
}));

function register(redirectUris: string[], isPublic: boolean) {
  return createClient(db, clock, { ownerId: owner.id, name: 'Native App', redirectUris, public: isPublic });
}

async function refusal(redirectUris: string[], isPublic: boolean): Promise<ValidationFailed> {
  const error: unknown = await register(redirectUris, isPublic).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error, redirectUris.join()).toBeInstanceOf(ValidationFailed);
  return error as ValidationFailed;
}

describe('PC-05 private-use URI scheme redirect URLs are for public clients only', () => {
  it('PC-05 a public client registers com.example.app:/callback: no secret, PKCE required', async () => {
    const created = await register(['com.example.app:/callback', 'http://127.0.0.1/callback'], true);
    expect(created.clientSecret).toBeUndefined();
    expect(created.client).toMatchObject({
      public: true,
      requirePkce: true,
      redirectUris: ['com.example.app:/callback', 'http://127.0.0.1/callback'],
    });
    const secrets = await db
      .selectFrom('client_secrets')
      .selectAll()
      .where('client_id', '=', created.client.id)
      .execute();
    expect(secrets).toEqual([]);
  });

  it('PC-05 a confidential client is refused it with ValidationFailed on redirect_uris, and nothing is stored', async () => {
    const error = await refusal(['com.example.app:/callback'], false);
    expect(error.field).toBe('redirect_uris');
    const rows = await db
      .selectFrom('clients')
      .select('id')
      .where('redirect_uris', 'like', '%com.example.app%')
      .where('public', '=', 0)
      .execute();
    expect(rows).toEqual([]);
  });

  it('PC-05 javascript:, data:, a scheme without a dot and a scheme with no path are refused for both kinds', async () => {
    for (const uri of [
      'javascript:alert(1)',
      'data:text/html,hi',
      'myapp:/cb',
      'com.example.app:callback',
      'com.example.app:/cb#frag',
      'com.example.app:/cb?code=1',
    ]) {
      for (const isPublic of [true, false]) {
        expect((await refusal([uri], isPublic)).field, uri).toBe('redirect_uris');
      }
    }
  });
});
