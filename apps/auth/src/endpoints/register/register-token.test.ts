// DR-06..DR-08: DYNAMIC_CLIENT_REGISTRATION=token: a registration needs an initial access token
// made by an operator (RFC 7591 §3), presented as a bearer token (RFC 6750).
import { describe, expect, it } from 'vitest';
import { createRegistrationToken, revokeRegistrationToken } from '@latchkey/core';
import { digest, generateToken, TokenPrefix } from '@latchkey/credentials';
import { useSystem } from '#test/support/system.ts';
import {
  countClients,
  expectRegistrationError,
  postRegistration,
  publicMetadata,
  register,
  registerUrl,
  signInWith,
} from './register.fixture.ts';

const system = useSystem({ DYNAMIC_CLIENT_REGISTRATION: 'token', RATE_LIMIT_REGISTER_PER_HOUR: '10000' });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('DR-06 token mode refuses a registration without a good initial access token', () => {
  it('DR-06 the metadata lists the registration_endpoint', async () => {
    const metadata = (await (await fetch(`${system.authUrl}/.well-known/oauth-authorization-server`)).json()) as {
      registration_endpoint?: string;
    };
    expect(metadata.registration_endpoint).toBe(registerUrl(system));
  });

  it('DR-06 no Authorization header: 401, the Bearer challenge without an error code; nothing stored', async () => {
    const before = await countClients(system);
    const answer = await postRegistration(system, publicMetadata());
    expectRegistrationError(answer, 401, 'invalid_token');
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="register"');
    // Basic is not a bearer token: answered as none (RFC 6750 §3.1).
    const basic = await postRegistration(system, publicMetadata(), { authorization: 'Basic YTpi' });
    expectRegistrationError(basic, 401, 'invalid_token');
    expect(await countClients(system)).toBe(before);
  });

  it('DR-06 a wrong token (unknown, malformed, another kind of Latchkey token): 401 invalid_token in the challenge; nothing stored', async () => {
    const before = await countClients(system);
    for (const token of [
      generateToken(TokenPrefix.initialAccessToken),
      'lki_tooshort',
      generateToken(TokenPrefix.registrationAccessToken),
      generateToken(TokenPrefix.personalAccessToken),
    ]) {
      const answer = await postRegistration(system, publicMetadata(), bearer(token));
      expectRegistrationError(answer, 401, 'invalid_token');
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="register", error="invalid_token"');
    }
    expect(await countClients(system)).toBe(before);
  });

  it('DR-06 the token is checked before the body is read: a bad body without a token is 401, not 400', async () => {
    expectRegistrationError(await postRegistration(system, '{not json'), 401, 'invalid_token');
  });

  it('DR-06 an Authorization header that is not one Bearer credential (two of them, joined): 400 invalid_request', async () => {
    const { token } = await createRegistrationToken(system.db, system.clock, { label: 'twice' });
    const before = await countClients(system);
    const answer = await postRegistration(system, publicMetadata(), {
      authorization: `Bearer ${token}, Bearer ${token}`,
    });
    expectRegistrationError(answer, 400, 'invalid_request');
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="register", error="invalid_request"');
    expect(await countClients(system)).toBe(before);
  });
});

describe('DR-07 DR-08 initial access tokens', () => {
  it('DR-07 a good token registers a client (more than one with the same token), which then signs a user in', async () => {
    const { token } = await createRegistrationToken(system.db, system.clock, { label: 'Hosted agents' });
    const first = await register(system, publicMetadata(), bearer(token));
    const second = await register(system, publicMetadata({ client_name: 'Second Agent' }), bearer(token));
    expect(second.client_id).not.toBe(first.client_id);
    const tokens = await signInWith(system, first);
    expect(tokens.access_token).toMatch(/^lko_/);
  });

  it('DR-08 a revoked token is refused from then on; nothing stored', async () => {
    const created = await createRegistrationToken(system.db, system.clock, { label: 'revoked' });
    await register(system, publicMetadata(), bearer(created.token));
    await revokeRegistrationToken(system.db, system.clock, created.id);
    const before = await countClients(system);
    expectRegistrationError(
      await postRegistration(system, publicMetadata(), bearer(created.token)),
      401,
      'invalid_token',
    );
    expect(await countClients(system)).toBe(before);
  });

  it('DR-07 a token with an expiry works until it, and is refused after', async () => {
    const created = await createRegistrationToken(system.db, system.clock, { label: 'a day', expiresInDays: 1 });
    await register(system, publicMetadata(), bearer(created.token));
    system.clock.advance(24 * 60 * 60 * 1000 + 1);
    expectRegistrationError(
      await postRegistration(system, publicMetadata(), bearer(created.token)),
      401,
      'invalid_token',
    );
  });

  it('DR-17 the initial access token is stored only as its digest', async () => {
    const { token } = await createRegistrationToken(system.db, system.clock, { label: 'digest' });
    const text = await system.databaseText();
    expect(text).not.toContain(token);
    expect(text).toContain(digest(token));
  });
});
