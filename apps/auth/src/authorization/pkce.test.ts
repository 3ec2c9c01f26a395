import { describe, expect, it } from 'vitest';
import { digest } from '@latchkey/credentials';
import { authorizeViaPages, openAuthorize, type AuthorizeRequest } from '#test/support/browserless-flow.ts';
import { makeClient, pkcePair } from '#test/support/fixtures.ts';
import { perFile } from '#test/support/per-file.ts';
import { useSystem } from '#test/support/system.ts';
import { countCodes, expectErrorRedirect, REDIRECT_URI, useConsentedBrowser } from './authorize.fixture.ts';

const system = useSystem();
/** `jar` has prior consent to both clients: without the PKCE check each request would get a code. */
const { user, client, jar } = useConsentedBrowser(system);
const { pkceClient } = perFile(async () => {
  const { client: pkceClient } = await makeClient(system, user, { redirectUri: REDIRECT_URI, requirePkce: true });
  const challenge = pkcePair().challenge;
  await authorizeViaPages(system, {
    user,
    clientId: pkceClient.id,
    redirectUri: REDIRECT_URI,
    codeChallenge: challenge,
    jar,
  });
  return { pkceClient };
});

async function expectPkceRejected(request: Omit<AuthorizeRequest, 'redirectUri' | 'state'>): Promise<void> {
  const before = await countCodes(system);
  const page = await openAuthorize(system, jar, { ...request, redirectUri: REDIRECT_URI, state: 'pk' });
  expectErrorRedirect(system, page, REDIRECT_URI, 'invalid_request', 'pk');
  expect(await countCodes(system)).toBe(before);
}

describe('RFC 7636 PKCE at the authorization endpoint (S256 only)', () => {
  it('PK-01 (authorize side) a valid S256 challenge is accepted and bound to the code', async () => {
    const { challenge } = pkcePair();
    const result = await authorizeViaPages(system, {
      user,
      clientId: client.id,
      redirectUri: REDIRECT_URI,
      codeChallenge: challenge,
      jar,
    });
    expect(result.code).toBeDefined();
    const row = await system.db
      .selectFrom('authorization_codes')
      .select('code_challenge')
      .where('code_hash', '=', digest(result.code!))
      .executeTakeFirstOrThrow();
    expect(row.code_challenge).toBe(challenge);
  });

  it('PK-05 code_challenge_method=plain: redirect with invalid_request, no code', async () => {
    await expectPkceRejected({ clientId: client.id, codeChallenge: pkcePair().verifier, codeChallengeMethod: 'plain' });
  });

  it('PK-05 a challenge without a method (RFC 7636 default plain): invalid_request', async () => {
    await expectPkceRejected({ clientId: client.id, extra: [['code_challenge', pkcePair().challenge]] });
  });

  it('PK-05 method s256 (wrong case): invalid_request', async () => {
    await expectPkceRejected({ clientId: client.id, codeChallenge: pkcePair().challenge, codeChallengeMethod: 's256' });
  });

  it('PK-06 challenge of 42 characters: invalid_request', async () => {
    await expectPkceRejected({ clientId: client.id, codeChallenge: 'a'.repeat(42) });
  });

  it('PK-06 challenge of 129 characters: invalid_request', async () => {
    await expectPkceRejected({ clientId: client.id, codeChallenge: 'a'.repeat(129) });
  });

  it('PK-06 challenge with characters outside [A-Za-z0-9-._~]: invalid_request', async () => {
    for (const bad of [
      `${'a'.repeat(42)}+`,
      `${'a'.repeat(42)}=`,
      `${'a'.repeat(42)}/`,
      `${'a'.repeat(42)} `,
      `${'a'.repeat(42)}é`,
    ]) {
      await expectPkceRejected({ clientId: client.id, codeChallenge: bad });
    }
  });

  it('PK-06 boundaries: 43 and 128 unreserved characters are accepted', async () => {
    for (const challenge of ['A-._~'.repeat(8) + 'abc', 'z'.repeat(128)]) {
      const result = await authorizeViaPages(system, {
        user,
        clientId: client.id,
        redirectUri: REDIRECT_URI,
        codeChallenge: challenge,
        jar,
      });
      expect(result.code).toBeDefined();
      expect(result.error).toBeUndefined();
    }
  });

  it('PK-07 code_challenge_method without code_challenge: invalid_request', async () => {
    await expectPkceRejected({ clientId: client.id, codeChallengeMethod: 'S256' });
  });

  it('PK-08 a client that requires PKCE sends no challenge: invalid_request', async () => {
    await expectPkceRejected({ clientId: pkceClient.id });
  });

  it('PK-08 the portal (first-party, PKCE required) without a challenge: invalid_request', async () => {
    const before = await countCodes(system);
    const redirectUri = system.config.portal.redirectUri;
    const page = await openAuthorize(system, jar, {
      clientId: system.config.portal.clientId,
      redirectUri,
      state: 'pk',
    });
    expectErrorRedirect(system, page, redirectUri, 'invalid_request', 'pk');
    expect(await countCodes(system)).toBe(before);
  });

  it('PK-08 the same client with a challenge: code issued', async () => {
    const result = await authorizeViaPages(system, {
      user,
      clientId: pkceClient.id,
      redirectUri: REDIRECT_URI,
      codeChallenge: pkcePair().challenge,
      jar,
    });
    expect(result.code).toBeDefined();
  });

  it('PK-05 duplicated code_challenge: invalid_request (P-02)', async () => {
    const { challenge } = pkcePair();
    await expectPkceRejected({ clientId: client.id, codeChallenge: challenge, extra: [['code_challenge', challenge]] });
  });
});
