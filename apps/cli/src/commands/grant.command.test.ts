import { beforeAll, describe, expect, it } from 'vitest';
import { applicationJson, applicationList } from '@latchkey/contracts';
import {
  authenticateAccessToken,
  findClient,
  findUserByEmail,
  hasConsented,
  issueAuthorizationCode,
  redeemAuthorizationCode,
  recordConsent,
  systemClock,
  type TokenPair,
} from '@latchkey/core';
import { expectFailure, expectSuccess, OTHER, OWNER, useSeededSandbox } from '../cli.fixture.ts';

const sandbox = useSeededSandbox();
const cli = (args: string[]) => sandbox.run(args);
let clientId: string;

/** One sign-in of `email` to the client, as the consent page and the code exchange record it. */
async function authorize(email: string): Promise<TokenPair> {
  return sandbox.withDb(async (db) => {
    const user = (await findUserByEmail(db, email))!;
    const client = (await findClient(db, clientId))!;
    await recordConsent(db, systemClock, user.id, client.id, client.scopes);
    const code = await issueAuthorizationCode(db, systemClock, {
      client,
      userId: user.id,
      redirectUri: client.redirectUris[0]!,
      codeChallenge: null,
    });
    return redeemAuthorizationCode(
      db,
      systemClock,
      { tokenTtlSeconds: 3600, refreshTokenTtlSeconds: 86_400 },
      { client, code, redirectUri: client.redirectUris[0]!, codeVerifier: undefined },
    );
  });
}

async function works(token: string): Promise<boolean> {
  return sandbox.withDb((db) =>
    authenticateAccessToken(db, systemClock, token).then(
      () => true,
      () => false,
    ),
  );
}

beforeAll(async () => {
  // The application belongs to the other user; the owner signs in to it.
  const created = await cli([
    'client',
    'create',
    '--owner',
    OTHER,
    '--name',
    'Photo Printer',
    '--redirect-uri',
    'https://printer.example/cb',
  ]);
  expectSuccess(created);
  clientId = created.json.client_id;
});

describe('AA-08 admin CLI: grant commands', () => {
  it('AA-08 grant list: one entry per application, with its active grants; grant revoke takes them all back', async () => {
    const pairs = [await authorize(OWNER), await authorize(OWNER), await authorize(OWNER)];
    const others = await authorize(OTHER);

    const listed = await cli(['grant', 'list', '--owner', OWNER]);
    expectSuccess(listed);
    expect(applicationList.parse(listed.json)).toEqual(listed.json);
    expect(listed.json).toEqual([
      expect.objectContaining({
        client_id: clientId,
        name: 'Photo Printer',
        owner_name: 'Otto Other',
        active_grants: 3,
      }),
    ]);

    const revoked = await cli(['grant', 'revoke', '--owner', OWNER, '--client', clientId]);
    expectSuccess(revoked);
    expect(applicationJson.parse(revoked.json)).toEqual(revoked.json);
    expect(revoked.json).toMatchObject({ client_id: clientId, active_grants: 0 });
    for (const pair of pairs) expect(await works(pair.accessToken)).toBe(false);
    expect((await cli(['grant', 'list', '--owner', OWNER])).json).toEqual([]);
    const consented = await sandbox.withDb(async (db) =>
      hasConsented(db, (await findUserByEmail(db, OWNER))!.id, clientId),
    );
    expect(consented).toBe(false);

    // The other user of the same application keeps theirs.
    expect(await works(others.accessToken)).toBe(true);
    expect((await cli(['grant', 'list', '--owner', OTHER])).json).toMatchObject([
      { client_id: clientId, active_grants: 1 },
    ]);
  });

  it('AA-08 grant revoke of an application the user has not authorized fails with a clear message (exit 1)', async () => {
    expectFailure(
      await cli(['grant', 'revoke', '--owner', OWNER, '--client', 'lkc_unknown']),
      1,
      /No such authorized application/,
    );
    expectFailure(await cli(['grant', 'revoke', '--owner', 'nobody@example.test', '--client', clientId]), 1);
  });

  it('AA-08 usage errors exit 2 naming the usage', async () => {
    expectFailure(await cli(['grant', 'list']), 2, /grant list --owner <email>/);
    expectFailure(
      await cli(['grant', 'revoke', '--owner', OWNER]),
      2,
      /grant revoke --owner <email> --client <client_id>/,
    );
    expectFailure(await cli(['grant', 'forget']), 2, /expected list or revoke/);
  });
});
