// DR-15, DR-16: a dynamic client that gets no tokens for 30 days is deleted (at the next
// registration), with everything it holds; getting tokens keeps it, recorded at most once a day.
import { describe, expect, it } from 'vitest';
import { createClient, DYNAMIC_CLIENT_UNUSED_DAYS } from '@latchkey/core';
import { makeUser, pkcePair } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { expectTokenResponse, postForm, tokenUrl } from '../oauth-json/oauth-endpoint.fixture.ts';
import { authorizeViaPages } from '#test/support/browserless-flow.ts';
import {
  clientOf,
  manageRegistration,
  publicMetadata,
  register,
  signInWith,
  type Registration,
} from './register.fixture.ts';

const DAY = 24 * 60 * 60 * 1000;
const system = useSystem({ DYNAMIC_CLIENT_REGISTRATION: 'open', RATE_LIMIT_REGISTER_PER_HOUR: '10000' });

async function lastUsedAt(registration: Registration): Promise<number | null> {
  const row = await system.db
    .selectFrom('clients')
    .select('last_used_at')
    .where('id', '=', registration.client_id)
    .executeTakeFirstOrThrow();
  return row.last_used_at === null ? null : Number(row.last_used_at);
}

async function exists(clientId: string): Promise<boolean> {
  return (
    (await system.db.selectFrom('clients').select('id').where('id', '=', clientId).executeTakeFirst()) !== undefined
  );
}

async function rowsOf(clientId: string): Promise<number> {
  let total = 0;
  for (const table of ['grants', 'access_tokens', 'refresh_tokens', 'consents'] as const) {
    total += (await system.db.selectFrom(table).select('client_id').where('client_id', '=', clientId).execute()).length;
  }
  return total;
}

function refresh(registration: Registration, refreshToken: string) {
  return postForm(tokenUrl(system), {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: registration.client_id,
  });
}

describe('DR-16 a dynamic client’s last use', () => {
  it('DR-16 recorded when it gets tokens, at most once a day; never for a registered client', async () => {
    const registration = await register(system, publicMetadata());
    expect(await lastUsedAt(registration)).toBeNull();
    const tokens = await signInWith(system, registration);
    const firstUse = system.clock.now();
    expect(await lastUsedAt(registration)).toBe(firstUse);

    system.clock.advance(60 * 60 * 1000);
    const second = await expectTokenResponse(await refresh(registration, tokens.refresh_token));
    expect(await lastUsedAt(registration)).toBe(firstUse);

    system.clock.advance(DAY);
    await expectTokenResponse(await refresh(registration, second.refresh_token));
    expect(await lastUsedAt(registration)).toBe(system.clock.now());

    // A client made in the portal: its tokens write nothing here.
    const owner = await makeUser(system, 'Olivia Owner');
    const { client } = await createClient(system.db, system.clock, {
      ownerId: owner.id,
      name: 'Portal App',
      redirectUris: ['http://127.0.0.1/callback'],
      public: true,
    });
    const { verifier, challenge } = pkcePair();
    const { code } = await authorizeViaPages(system, {
      clientId: client.id,
      redirectUri: 'http://127.0.0.1/callback',
      codeChallenge: challenge,
      user: await makeUser(system),
    });
    await expectTokenResponse(
      await postForm(tokenUrl(system), {
        grant_type: 'authorization_code',
        code: code!,
        redirect_uri: 'http://127.0.0.1/callback',
        code_verifier: verifier,
        client_id: client.id,
      }),
    );
    const row = await system.db
      .selectFrom('clients')
      .select('last_used_at')
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(row.last_used_at).toBeNull();
  });
});

describe('DR-15 dynamic clients unused for 30 days are deleted', () => {
  it('DR-15 at the next registration: a client never used, and one last used 31 days ago, go with their tokens; one used since, one just made and a portal client stay', async () => {
    expect(DYNAMIC_CLIENT_UNUSED_DAYS).toBe(30);
    const neverUsed = await register(system, publicMetadata({ client_name: 'Never Used' }));
    const usedOnce = await register(system, publicMetadata({ client_name: 'Used Once' }));
    const usedAgain = await register(system, publicMetadata({ client_name: 'Used Again' }));
    await signInWith(system, usedOnce);
    await signInWith(system, usedAgain);
    expect(await rowsOf(usedOnce.client_id)).toBeGreaterThan(0);
    const owner = await makeUser(system, 'Olivia Owner');
    const portal = await createClient(system.db, system.clock, {
      ownerId: owner.id,
      name: 'Portal App',
      redirectUris: ['https://portal-app.example/cb'],
    });

    system.clock.advance(20 * DAY);
    await signInWith(system, usedAgain);
    const fresh = await register(system, publicMetadata({ client_name: 'Fresh' }));
    // Day 20: nothing is old enough yet.
    for (const r of [neverUsed, usedOnce, usedAgain]) expect(await exists(r.client_id)).toBe(true);

    system.clock.advance(11 * DAY);
    const trigger = await register(system, publicMetadata({ client_name: 'Trigger' }));

    expect(await exists(neverUsed.client_id)).toBe(false);
    expect(await exists(usedOnce.client_id)).toBe(false);
    expect(await rowsOf(usedOnce.client_id)).toBe(0);
    expect(await exists(usedAgain.client_id)).toBe(true);
    expect(await exists(fresh.client_id)).toBe(true);
    expect(await exists(trigger.client_id)).toBe(true);
    expect(await exists(portal.client.id)).toBe(true);
    // Its registration access token now manages nothing: 401, as for an unknown client.
    const read = await manageRegistration(
      neverUsed.registration_client_uri,
      'GET',
      neverUsed.registration_access_token,
    );
    expect(read.status).toBe(401);
    expect((await clientOf(system, usedAgain)).registration).toBe('dynamic');
  });
});
