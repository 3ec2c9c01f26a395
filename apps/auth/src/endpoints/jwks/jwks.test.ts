import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ROTATION_DELAY_MS,
  ID_TOKEN_TTL_MS,
  rotateSigningKeys,
  SigningKeyRing,
  signingKeySealer,
} from '@latchkey/core';
import { captureLogger, closeServer, listenOnLoopback } from '#test/support/loopback.ts';
import { perFile } from '#test/support/per-file.ts';
import { useSystem } from '#test/support/system.ts';
import { createAuthApp } from '../../app.ts';

// OI-08 (the key set as published) and OI-10 (rotation as verifiers see it), over real HTTP. The
// rotation tests run their own instance of the auth app on the file's database, with a key ring
// they can tell to re-read the keys (an instance does so by itself once a minute).
const system = useSystem();
const { instance } = perFile(
  async () => {
    const server = createServer();
    const port = await listenOnLoopback(server);
    const ring = new SigningKeyRing(system.db, system.clock, signingKeySealer(system.config.sessionSecret));
    server.on(
      'request',
      createAuthApp({
        config: system.config,
        db: system.db,
        clock: system.clock,
        logger: captureLogger([]),
        signingKeys: ring,
      }),
    );
    return { instance: { server, ring, url: `http://127.0.0.1:${port}/.well-known/jwks.json` } };
  },
  ({ instance }) => closeServer(instance.server),
);

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

type JWK = JsonWebKey & { kid?: string; alg?: string; use?: string };

function kidOf(jwt: string): string {
  return (JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
}

/** RS256 (RFC 7518 §3.3) checked with the published key of the token's kid, as a verifier does. */
function verifiesWith(keys: JWK[], jwt: string): boolean {
  const key = keys.find((candidate) => candidate.kid === kidOf(jwt));
  if (!key) return false;
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  return verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    createPublicKey({ key, format: 'jwk' }),
    Buffer.from(signature, 'base64url'),
  );
}

async function keySet(url: string): Promise<{ response: Response; keys: JWK[] }> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return { response, keys: ((await response.json()) as { keys: JWK[] }).keys };
}

describe('OI-08 GET /.well-known/jwks.json', () => {
  it('OI-08 lists the public keys only, each with kid, alg and use sig: one RS256 and one ES256', async () => {
    const { response, keys } = await keySet(`${system.authUrl}/.well-known/jwks.json`);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(keys.map((key) => key.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const key of keys) {
      expect(key).toMatchObject({ kid: expect.any(String), use: 'sig' });
      for (const member of PRIVATE_MEMBERS) expect(key, `${key.kid} ${member}`).not.toHaveProperty(member);
    }
    expect(keys.find((key) => key.alg === 'RS256')).toMatchObject({ kty: 'RSA', n: expect.any(String), e: 'AQAB' });
    expect(keys.find((key) => key.alg === 'ES256')).toMatchObject({
      kty: 'EC',
      crv: expect.stringMatching(/^P.256$/),
      x: expect.any(String),
      y: expect.any(String),
    });
  });

  it('OI-08 is cacheable by anyone for 5 minutes, with a strong ETag; If-None-Match with it is 304 with no body', async () => {
    const url = `${system.authUrl}/.well-known/jwks.json`;
    const first = await fetch(url);
    await first.arrayBuffer();
    expect(first.headers.get('cache-control')).toBe('public, max-age=300');
    expect(first.headers.get('pragma')).toBeNull();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{43}"$/);
    const again = await fetch(url);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe(await (await fetch(url)).text());
    const unchanged = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect(unchanged.headers.get('cache-control')).toBe('public, max-age=300');
    const stale = await fetch(url, { headers: { 'if-none-match': '"something-else"' } });
    expect(stale.status).toBe(200);
    expect((await stale.json()) as unknown).toHaveProperty('keys');
  });

  it('OI-08 HEAD answers the same headers; POST is not a way to read it', async () => {
    const head = await fetch(`${system.authUrl}/.well-known/jwks.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toMatch(/^"/);
    const post = await fetch(`${system.authUrl}/.well-known/jwks.json`, { method: 'POST' });
    expect(post.status).toBe(404);
  });
});

describe('OI-10 a rotation as verifiers see it', () => {
  it('OI-10 OI-08 the ETag changes only on rotation; the new key is published at once, signs after the delay, and the old stays until its tokens expired', async () => {
    const { ring, url } = instance;
    const start = system.clock.now();
    const before = await keySet(url);
    const etag = before.response.headers.get('etag')!;
    const oldToken = await ring.sign(
      { sub: 'usr_1', iat: Math.floor(start / 1000), exp: Math.floor((start + ID_TOKEN_TTL_MS) / 1000) },
      'RS256',
    );
    const oldKid = kidOf(oldToken);
    expect(before.keys.map((key) => key.kid)).toContain(oldKid);

    // Time alone changes nothing.
    system.clock.advance(10 * 60 * 1000);
    ring.invalidate();
    expect((await fetch(url)).headers.get('etag')).toBe(etag);

    await rotateSigningKeys(system.db, system.clock, signingKeySealer(system.config.sessionSecret), {
      algs: ['RS256'],
    });
    ring.invalidate();
    const published = await keySet(url);
    expect(published.response.headers.get('etag')).not.toBe(etag);
    const rsKids = published.keys.filter((key) => key.alg === 'RS256').map((key) => key.kid);
    expect(rsKids).toHaveLength(2);
    const newKid = rsKids.find((kid) => kid !== oldKid)!;
    // Within the delay the old key still signs.
    expect(kidOf(await ring.sign({ sub: 'usr_1' }, 'RS256'))).toBe(oldKid);

    system.clock.advance(DEFAULT_ROTATION_DELAY_MS);
    ring.invalidate();
    expect(kidOf(await ring.sign({ sub: 'usr_1' }, 'RS256'))).toBe(newKid);
    // The token the old key signed still verifies against the published set until it expires.
    const stillPublished = await keySet(url);
    expect(stillPublished.keys.map((key) => key.kid)).toContain(oldKid);
    expect(verifiesWith(stillPublished.keys, oldToken)).toBe(true);
    expect(verifiesWith(stillPublished.keys, `${oldToken.slice(0, -2)}AA`)).toBe(false);

    // An ID token's lifetime after the old key stopped signing, nothing it signed is valid: it is gone.
    system.clock.advance(ID_TOKEN_TTL_MS);
    ring.invalidate();
    const after = await keySet(url);
    expect(after.keys.map((key) => key.kid)).not.toContain(oldKid);
    expect(after.keys.map((key) => key.kid)).toContain(newKid);
  });
});
