// OI-09 (keys made on first start, private halves sealed at rest) and OI-10 (rotation with overlap),
// on a real database (SQLite; PostgreSQL in node-pg) with a manual clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, type Db } from '@latchkey/db';
import { createTestDatabase, type TestDatabase } from '#test/support/test-database.ts';
import { ManualClock } from '../clock.ts';
import {
  DEFAULT_ROTATION_DELAY_MS,
  ensureSigningKeys,
  ID_TOKEN_TTL_MS,
  listSigningKeys,
  rotateSigningKeys,
  SigningKeyRing,
  signingKeySealer,
  type IdTokenAlg,
} from './signing-keys.service.ts';

const MINUTE = 60 * 1000;
const sealer = signingKeySealer('a session secret of at least thirty-two characters');
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'];
let clock: ManualClock;
let dir: string;
let database: TestDatabase;
let db: Db;
let ring: SigningKeyRing;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'latchkey-keys-'));
  database = await createTestDatabase(dir);
  db = database.open();
  await migrateToLatest(db);
});
afterAll(async () => {
  await db?.destroy();
  await database?.dispose();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await db.deleteFrom('signing_keys').execute();
  clock = new ManualClock(Date.UTC(2026, 0, 1));
  ring = new SigningKeyRing(db, clock, sealer);
});

/** What a verifier holds after fetching the JWKS now. */
async function published(): Promise<string[]> {
  ring.invalidate();
  return (await ring.jwks()).keys.map((key) => key.kid!);
}

async function signedBy(alg: IdTokenAlg = 'RS256'): Promise<string> {
  ring.invalidate();
  return decodeProtectedHeader(await ring.sign({ sub: 'usr_1' }, alg)).kid!;
}

/** An ID token as the token endpoint makes it: iat now, exp an ID token's lifetime later. */
async function idToken(): Promise<string> {
  ring.invalidate();
  const iat = Math.floor(clock.now() / 1000);
  return ring.sign({ sub: 'usr_1', iat, exp: iat + ID_TOKEN_TTL_MS / 1000 }, 'RS256');
}

async function verifiesAt(token: string, at: number): Promise<boolean> {
  const jwks = createLocalJWKSet((await ring.jwks()) as { keys: JWK[] });
  return jwtVerify(token, jwks, { currentDate: new Date(at) }).then(
    () => true,
    () => false,
  );
}

function advanceTo(at: number): void {
  clock.set(at);
  ring.invalidate();
}

describe('OI-09 signing keys at rest', () => {
  it('OI-09 the first start makes one key per algorithm, once; each kid is its public key thumbprint', async () => {
    await ensureSigningKeys(db, clock, sealer);
    await ensureSigningKeys(db, clock, sealer);
    const keys = await listSigningKeys(db, clock);
    expect(keys.map((key) => key.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(keys.every((key) => key.status === 'signing' && key.retiredAt === null)).toBe(true);
    expect(keys.every((key) => /^[\w-]{43}$/.test(key.kid))).toBe(true);
  });

  it('OI-09 a key ring over an empty table makes the keys itself and signs at once', async () => {
    expect(await signedBy('ES256')).toMatch(/^[\w-]{43}$/);
    expect(await db.selectFrom('signing_keys').select('kid').execute()).toHaveLength(2);
  });

  it('OI-09 the database holds no private key member in plaintext: every row sealed, no d, p or q anywhere in it', async () => {
    await ensureSigningKeys(db, clock, sealer);
    await rotateSigningKeys(db, clock, sealer);
    const rows = await db.selectFrom('signing_keys').selectAll().execute();
    expect(rows).toHaveLength(4);
    const dump = JSON.stringify(rows);
    for (const row of rows) {
      const publicJwk = JSON.parse(row.public_jwk) as Record<string, unknown>;
      for (const member of PRIVATE_MEMBERS) expect(publicJwk, member).not.toHaveProperty(member);
      expect(row.private_jwk_sealed).not.toMatch(/[{}"]/);
      // The private values exist only after unsealing, and none of them appears in the stored rows.
      const privateJwk = JSON.parse(sealer.open(row.private_jwk_sealed)!) as Record<string, string>;
      const secrets = PRIVATE_MEMBERS.filter((member) => member in privateJwk).map((member) => privateJwk[member]!);
      expect(secrets.length).toBeGreaterThan(0);
      for (const secret of secrets) expect(dump.includes(secret)).toBe(false);
      expect(dump.includes(Buffer.from(secrets[0]!, 'base64url').toString('hex'))).toBe(false);
    }
    // Another SESSION_SECRET opens nothing.
    const stranger = signingKeySealer('another session secret, also thirty-two characters');
    expect(rows.every((row) => stranger.open(row.private_jwk_sealed) === undefined)).toBe(true);
  });
});

describe('OI-10 rotation with overlap', () => {
  it('OI-10 the new key is published at once, signs only after the delay; the old stays published until its tokens expired, then goes', async () => {
    await ensureSigningKeys(db, clock, sealer);
    const start = clock.now();
    const oldKid = await signedBy();
    const [rotated] = await rotateSigningKeys(db, clock, sealer, { algs: ['RS256'] });
    const newKid = rotated!.kid;
    expect(rotated).toMatchObject({ status: 'next', signsFrom: start + DEFAULT_ROTATION_DELAY_MS, retiredAt: null });
    expect(await published()).toEqual(expect.arrayContaining([oldKid, newKid]));

    // Just before the delay: the old key signs; both are published.
    advanceTo(start + DEFAULT_ROTATION_DELAY_MS - 1);
    expect(await signedBy()).toBe(oldKid);
    const lastOldToken = await idToken();
    const statuses = async () => Object.fromEntries((await listSigningKeys(db, clock)).map((k) => [k.kid, k.status]));
    expect(await statuses()).toMatchObject({ [oldKid]: 'signing', [newKid]: 'next' });

    // From the delay on: the new key signs; the old is still published.
    advanceTo(start + DEFAULT_ROTATION_DELAY_MS);
    expect(await signedBy()).toBe(newKid);
    expect(await statuses()).toMatchObject({ [oldKid]: 'retired', [newKid]: 'signing' });
    const retiredAt = (await listSigningKeys(db, clock)).find((k) => k.kid === oldKid)!.retiredAt!;
    expect(retiredAt).toBe(start + DEFAULT_ROTATION_DELAY_MS);

    // Until the last token the old key signed has expired, it verifies against the published set.
    advanceTo(retiredAt + ID_TOKEN_TTL_MS - 1);
    expect(await published()).toContain(oldKid);
    expect(await verifiesAt(lastOldToken, clock.now() - 1000)).toBe(true);

    // Then the old key is gone from the set; the next rotation deletes its row.
    advanceTo(retiredAt + ID_TOKEN_TTL_MS);
    expect(await published()).not.toContain(oldKid);
    expect(await published()).toContain(newKid);
    await rotateSigningKeys(db, clock, sealer, { algs: ['RS256'] });
    expect((await listSigningKeys(db, clock)).map((k) => k.kid)).not.toContain(oldKid);
  });

  it('OI-10 the ES256 key rotates on its own; a rotation of both leaves one signing key per algorithm', async () => {
    await ensureSigningKeys(db, clock, sealer);
    const es = await signedBy('ES256');
    await rotateSigningKeys(db, clock, sealer, { algs: ['RS256'] });
    advanceTo(clock.now() + DEFAULT_ROTATION_DELAY_MS);
    expect(await signedBy('ES256')).toBe(es);
    await rotateSigningKeys(db, clock, sealer, { delayMs: 0 });
    const signing = (await listSigningKeys(db, clock)).filter((k) => k.status === 'signing');
    expect(signing.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(await signedBy('ES256')).not.toBe(es);
  });

  it("OI-10 an emergency rotation (delay 0) during another one's delay: the new key signs now, and the pending one never does", async () => {
    await ensureSigningKeys(db, clock, sealer);
    const start = clock.now();
    const original = await signedBy();
    const [pending] = await rotateSigningKeys(db, clock, sealer, { algs: ['RS256'] });
    advanceTo(start + 10 * MINUTE);
    const [emergency] = await rotateSigningKeys(db, clock, sealer, { delayMs: 0, algs: ['RS256'] });
    expect(await signedBy()).toBe(emergency!.kid);
    const byKid = async () => new Map((await listSigningKeys(db, clock)).map((k) => [k.kid, k]));
    expect((await byKid()).get(original)).toMatchObject({ status: 'retired', retiredAt: start + 10 * MINUTE });
    expect((await byKid()).get(pending!.kid)).toMatchObject({ status: 'retired', retiredAt: start + 10 * MINUTE });
    // When the pending key's own delay has passed, it still does not sign.
    advanceTo(start + DEFAULT_ROTATION_DELAY_MS + MINUTE);
    expect(await signedBy()).toBe(emergency!.kid);
    expect((await byKid()).get(emergency!.kid)!.status).toBe('signing');
  });
});
