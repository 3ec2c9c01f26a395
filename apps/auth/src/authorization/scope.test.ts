import { describe, expect, it } from 'vitest';
import { SCOPES } from '@latchkey/contracts';
import { consentedScopes, type Client } from '@latchkey/core';
import { digest } from '@latchkey/credentials';
import {
  authorizeViaPages,
  CookieJar,
  driveToDecision,
  getConsent,
  parseAuthorizationRedirect,
  submitDecision,
  type AuthorizeRequest,
} from '#test/support/browserless-flow.ts';
import { makeClient, pkcePair, useUsers } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { countCodes, expectErrorRedirect, provisionClient, REDIRECT_URI } from './authorize.fixture.ts';

const system = useSystem();
const { user, owner } = useUsers(system, { user: 'Ada Lovelace', owner: 'Olivia Owner' });

async function freshClient(): Promise<Client> {
  return (await makeClient(system, owner, { redirectUri: REDIRECT_URI })).client;
}

function request(client: Client, scope: string | undefined, more: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    clientId: client.id,
    redirectUri: REDIRECT_URI,
    state: 'sc',
    ...(scope !== undefined && { extra: [['scope', scope]] as Array<[string, string]> }),
    ...more,
  };
}

/** The scope stored with the code (and its grant) that a redirect carries. */
async function codeScope(code: string): Promise<string> {
  const row = await system.db
    .selectFrom('authorization_codes')
    .innerJoin('grants', 'grants.id', 'authorization_codes.grant_id')
    .select(['authorization_codes.scope as code', 'grants.scope as grant'])
    .where('authorization_codes.code_hash', '=', digest(code))
    .executeTakeFirstOrThrow();
  expect(row.grant).toBe(row.code);
  return row.code;
}

/** A browser signed in as `user` that approved `scope` for `client`. */
async function approved(client: Client, scope: string): Promise<CookieJar> {
  const { jar, code } = await authorizeViaPages(system, { ...request(client, scope), user });
  expect(code).toBeDefined();
  return jar;
}

describe('SC-02 scope at /oauth/authorize: what the client may not have is invalid_scope on the redirect', () => {
  async function expectInvalidScope(client: Client, scope: string) {
    const before = await countCodes(system);
    // A signed-in browser that approved the client: without the scope check a code would follow.
    const jar = await approved(client, 'profile');
    const page = await driveToDecision(system, jar, request(client, scope));
    expectErrorRedirect(system, page, REDIRECT_URI, 'invalid_scope', 'sc');
    expect(await countCodes(system)).toBe(before + 1);
    return parseAuthorizationRedirect(page.location!);
  }

  it('SC-02 an unknown scope: invalid_scope with state and iss, no code; the name is not echoed', async () => {
    const response = await expectInvalidScope(await freshClient(), 'profile <b>admin</b>');
    expect(response.errorDescription).toContain('scope');
    expect(response.errorDescription).not.toContain('admin');
  });


  it('SC-02 account asked by a third-party client: invalid_scope, no code', async () => {
    await expectInvalidScope(await freshClient(), 'account');
  });

  it('SC-02 scope given twice: invalid_request, as any repeated parameter (P-02)', async () => {
    const client = await freshClient();
    const jar = await approved(client, 'profile');
    const page = await driveToDecision(system, jar, {
      ...request(client, undefined),
      extra: [
        ['scope', 'profile'],
        ['scope', 'email'],
      ],
    });
    expectErrorRedirect(system, page, REDIRECT_URI, 'invalid_request', 'sc');
  });

  it('SC-02 the first-party client may ask for account', async () => {
    await provisionClient(system, 'lkc_scope_test_first_party', 'Own Portal');
    const { code } = await authorizeViaPages(system, {
      clientId: 'lkc_scope_test_first_party',
      redirectUri: REDIRECT_URI,
      codeChallenge: pkcePair().challenge,
      extra: [['scope', 'account']],
      user,
    });
    expect(await codeScope(code!)).toBe('account');
  });
});

describe('SC-03 no scope: the client registered default', () => {
  it('SC-03 no scope, or an empty one, gives the code and its grant every third-party scope, as before', async () => {
    const client = await freshClient();
    expect(client.scopes).toEqual(['profile', 'email']);
    const { code, jar } = await authorizeViaPages(system, { ...request(client, undefined), user });
    expect(await codeScope(code!)).toBe('profile email');
    expect(await consentedScopes(system.db, user.id, client.id)).toEqual(['profile', 'email']);
    const again = await authorizeViaPages(system, { ...request(client, ' '), user, jar });
    expect(await codeScope(again.code!)).toBe('profile email');
  });

  it('SC-03 a scope asked for is what the code carries, in registry order', async () => {
    const client = await freshClient();
    const { code } = await authorizeViaPages(system, { ...request(client, 'email  profile email'), user });
    expect(await codeScope(code!)).toBe('profile email');
    const narrow = await authorizeViaPages(system, { ...request(await freshClient(), 'email'), user });
    expect(await codeScope(narrow.code!)).toBe('email');
  });

  it('SC-01 SC-03 OI-01 openid is accepted from any client and in no default: `openid profile` is both; a bare `openid` is the default and openid', async () => {
    const client = await freshClient();
    expect(client.scopes).not.toContain('openid');
    const { code } = await authorizeViaPages(system, { ...request(client, 'openid profile'), user });
    expect(await codeScope(code!)).toBe('openid profile');
    const bare = await authorizeViaPages(system, { ...request(await freshClient(), 'openid'), user });
    expect(await codeScope(bare.code!)).toBe('openid profile email');
  });
});

describe('SC-05 consent lists the scopes and is remembered per scope', () => {
  it('SC-05 the consent page shows each requested scope with its sentence, and only those', async () => {
    const client = await freshClient();
    const page = await getConsent(system, new CookieJar(), request(client, 'profile'), user);
    expect(page.html).toContain(SCOPES.profile.sentence);
    expect(page.html).not.toContain(SCOPES.email.sentence);
    expect(page.html).not.toContain('New:');
    const both = await getConsent(system, new CookieJar(), request(client, 'profile email'), user);
    expect(both.html).toContain(SCOPES.profile.sentence);
    expect(both.html).toContain(SCOPES.email.sentence);
  });

  it('SC-05 OI-01 openid has its own line, and a sign-in that adds it to an approval asks once, marking it new', async () => {
    const client = await freshClient();
    const page = await getConsent(system, new CookieJar(), request(client, 'openid profile'), user);
    expect(page.html).toContain(SCOPES.openid.sentence);
    const jar = await approved(client, 'profile');
    const more = await driveToDecision(system, jar, request(client, 'openid profile'));
    expect(more.step).toBe('consent');
    expect(more.html).toContain(`New:</strong> ${SCOPES.openid.sentence}`);
    await submitDecision(system, jar, more, 'allow');
    const again = await driveToDecision(system, jar, request(client, 'openid profile'));
    expect(again.status).toBe(303);
  });

  it('SC-05 approved profile: profile again goes straight back with a code; profile email asks, email marked new', async () => {
    const client = await freshClient();
    const jar = await approved(client, 'profile');
    expect(await consentedScopes(system.db, user.id, client.id)).toEqual(['profile']);

    const same = await driveToDecision(system, jar, request(client, 'profile'));
    expect(same.status).toBe(303);
    const response = parseAuthorizationRedirect(same.location!);
    expect(response.state).toBe('sc');
    expect(await codeScope(response.code!)).toBe('profile');

    const more = await driveToDecision(system, jar, request(client, 'profile email'));
    expect(more.step).toBe('consent');
    expect(more.html).toContain(SCOPES.profile.sentence);
    expect(more.html).toMatch(/New:<\/strong> See your email address/);
    expect(more.html).not.toMatch(/New:<\/strong> See your user id/);
    const answer = await submitDecision(system, jar, more, 'allow');
    expect(await codeScope(parseAuthorizationRedirect(answer.location!).code!)).toBe('profile email');
    expect(await consentedScopes(system.db, user.id, client.id)).toEqual(['profile', 'email']);

    // The union is remembered: either part alone, or both, now go straight through.
    for (const scope of ['email', 'profile email', undefined]) {
      const page = await driveToDecision(system, jar, request(client, scope));
      expect(page.status).toBe(303);
      expect(parseAuthorizationRedirect(page.location!).code).toBeDefined();
    }
  });

  it('SC-05 prompt=consent always asks, even for approved scopes, and marks nothing new', async () => {
    const client = await freshClient();
    const jar = await approved(client, 'profile email');
    const page = await driveToDecision(system, jar, request(client, 'profile', { prompt: 'consent' }));
    expect(page.step).toBe('consent');
    expect(page.html).toContain(SCOPES.profile.sentence);
    expect(page.html).not.toContain('New:');
  });

  it('SC-05 Deny after asking for more keeps the earlier approval as it was', async () => {
    const client = await freshClient();
    const jar = await approved(client, 'profile');
    const more = await driveToDecision(system, jar, request(client, 'profile email'));
    await submitDecision(system, jar, more, 'deny');
    expect(await consentedScopes(system.db, user.id, client.id)).toEqual(['profile']);
  });
});
