import {
  calculateJwkThumbprint,
  compactVerify,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type JWK,
  type JWTPayload,
} from 'jose';
import { ID_TOKEN_SIGNED_RESPONSE_ALGS, type IdTokenSignedResponseAlg } from '@latchkey/contracts';
import { createSealer, type Sealer } from '@latchkey/credentials';
import type { Executor, SigningKeysTable } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import {
  deleteSigningKeysRetiredBefore,
  insertSigningKey,
  listSigningKeyRows,
  retireOtherKeys,
} from './signing-keys.repository.ts';

/** OI-03: what ID tokens may be signed with; RS256 is every client's default (OpenID Connect Core §3.1.3.7). */
export const ID_TOKEN_ALGS = ID_TOKEN_SIGNED_RESPONSE_ALGS;
export type IdTokenAlg = IdTokenSignedResponseAlg;

/** How long an ID token is valid: what a retired key's public half must outlive in the JWKS. */
export const ID_TOKEN_TTL_MS = 60 * 60 * 1000;

/**
 * How long a new key is published before it signs (OI-10): verifiers that cached the JWKS fetch
 * it again when they meet an unknown `kid`, but a cache that only refreshes on its own schedule
 * needs the key to be there first. Every instance reloads its keys more often than this.
 */
export const DEFAULT_ROTATION_DELAY_MS = 60 * 60 * 1000;

/**
 * OI-09: the private keys are sealed at rest (AES-256-GCM) under a key derived from SESSION_SECRET,
 * which every instance and the CLI share; the database alone never holds a usable private key.
 */
export function signingKeySealer(sessionSecret: string): Sealer {
  return createSealer(sessionSecret, {
    salt: 'latchkey-signing-keys',
    info: 'ID token signing keys at rest',
    aad: 'latchkey/signing-key/v1',
  });
}

/** How often an instance re-reads the keys (a rotation elsewhere is seen within this). */
const RELOAD_MS = 60 * 1000;

export interface SigningKeyInfo {
  kid: string;
  alg: IdTokenAlg;
  createdAt: number;
  signsFrom: number;
  retiredAt: number | null;
  /** What it is doing now: `next` (published, not signing yet), `signing`, or `retired` (published until its tokens expire). */
  status: 'next' | 'signing' | 'retired';
}

interface LoadedKey {
  row: SigningKeysTable;
  publicJwk: JWK;
  privateKey: CryptoKey | undefined;
  publicKey?: CryptoKey;
}

/** What an ID token used as a hint (`id_token_hint`) says: whom it was about and for which client. */
export interface IdTokenHint {
  sub: string;
  /** Its audience; a Latchkey ID token has exactly one, the client it was issued to. */
  aud: string;
}

function statusOf(row: SigningKeysTable, now: number): SigningKeyInfo['status'] {
  if (row.retired_at !== null && Number(row.retired_at) <= now) return 'retired';
  return Number(row.signs_from) > now ? 'next' : 'signing';
}

export function presentSigningKey(row: SigningKeysTable, now: number): SigningKeyInfo {
  return {
    kid: row.kid,
    alg: row.alg as IdTokenAlg,
    createdAt: Number(row.created_at),
    signsFrom: Number(row.signs_from),
    retiredAt: row.retired_at === null ? null : Number(row.retired_at),
    status: statusOf(row, now),
  };
}

/** A new key pair of `alg`: its kid is the public key's RFC 7638 thumbprint; the private JWK is sealed. */
async function newKeyRow(alg: IdTokenAlg, sealer: Sealer, now: number, signsFrom: number): Promise<SigningKeysTable> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = await exportJWK(privateKey);
  return {
    kid,
    alg,
    public_jwk: JSON.stringify({ ...publicJwk, kid, alg, use: 'sig' }),
    private_jwk_sealed: sealer.seal(JSON.stringify(privateJwk)),
    created_at: now,
    signs_from: signsFrom,
    retired_at: null,
  };
}

/**
 * OI-09: on first start, one key per algorithm. Instances starting together may each add one; all
 * then sign with the same (the newest by `signs_from`, then `kid`), and the extra is published
 * like any other until rotated away.
 */
export async function ensureSigningKeys(db: Executor, clock: Clock, sealer: Sealer): Promise<void> {
  const rows = await listSigningKeyRows(db);
  const now = clock.now();
  for (const alg of ID_TOKEN_ALGS) {
    if (!rows.some((row) => row.alg === alg)) await insertSigningKey(db, await newKeyRow(alg, sealer, now, now));
  }
}

/**
 * OI-10: rotation with overlap. The new key is published at once and signs from `delayMs` on; the
 * keys it replaces stop signing then and stay published until every ID token they signed has
 * expired (retired_at + ID_TOKEN_TTL_MS). Keys past that are deleted.
 */
export async function rotateSigningKeys(
  db: Executor,
  clock: Clock,
  sealer: Sealer,
  options: { delayMs?: number; algs?: readonly IdTokenAlg[] } = {},
): Promise<SigningKeyInfo[]> {
  const now = clock.now();
  const signsFrom = now + (options.delayMs ?? DEFAULT_ROTATION_DELAY_MS);
  // Generated before the transaction: RSA key generation takes long enough to matter to a write lock.
  const rows: SigningKeysTable[] = [];
  for (const alg of options.algs ?? ID_TOKEN_ALGS) rows.push(await newKeyRow(alg, sealer, now, signsFrom));
  // All or nothing: a new key without its predecessor retired would leave two signing keys.
  const rotate = async (trx: Executor) => {
    await deleteSigningKeysRetiredBefore(trx, now - ID_TOKEN_TTL_MS);
    for (const row of rows) {
      await insertSigningKey(trx, row);
      await retireOtherKeys(trx, row.alg, row.kid, signsFrom);
    }
  };
  await (db.isTransaction ? rotate(db) : db.transaction().execute(rotate));
  return rows.map((row) => presentSigningKey(row, now));
}

export async function listSigningKeys(db: Executor, clock: Clock): Promise<SigningKeyInfo[]> {
  const now = clock.now();
  return (await listSigningKeyRows(db)).map((row) => presentSigningKey(row, now));
}

/**
 * The keys of one server process, read from the database and kept for RELOAD_MS: signing an ID
 * token costs no query and no unsealing. A rotation done by another instance (or the CLI) is
 * picked up within RELOAD_MS, well inside the rotation delay.
 */
export class SigningKeyRing {
  readonly #db: Executor;
  readonly #clock: Clock;
  readonly #sealer: Sealer;
  #keys: LoadedKey[] = [];
  #loadedAt = Number.NEGATIVE_INFINITY;
  #loading: Promise<void> | undefined;

  constructor(db: Executor, clock: Clock, sealer: Sealer) {
    this.#db = db;
    this.#clock = clock;
    this.#sealer = sealer;
  }

  async #current(): Promise<LoadedKey[]> {
    if (Date.now() - this.#loadedAt >= RELOAD_MS) {
      this.#loading ??= this.#load().finally(() => {
        this.#loading = undefined;
      });
      await this.#loading;
    }
    return this.#keys;
  }

  async #load(): Promise<void> {
    let rows = await listSigningKeyRows(this.#db);
    if (!ID_TOKEN_ALGS.every((alg) => rows.some((row) => row.alg === alg))) {
      await ensureSigningKeys(this.#db, this.#clock, this.#sealer);
      rows = await listSigningKeyRows(this.#db);
    }
    const keys: LoadedKey[] = [];
    for (const row of rows) {
      const known = this.#keys.find((key) => key.row.kid === row.kid);
      keys.push({ row, publicJwk: JSON.parse(row.public_jwk) as JWK, privateKey: known?.privateKey });
    }
    this.#keys = keys;
    this.#loadedAt = Date.now();
  }

  /** Forgets what was read: the next use reads the keys again (after a rotation in this process, and in tests). */
  invalidate(): void {
    this.#loadedAt = Number.NEGATIVE_INFINITY;
  }

  async #privateKey(key: LoadedKey): Promise<CryptoKey> {
    if (key.privateKey) return key.privateKey;
    const opened = this.#sealer.open(key.row.private_jwk_sealed);
    if (opened === undefined) {
      throw new Error(`signing key ${key.row.kid} cannot be unsealed: was SESSION_SECRET changed?`);
    }
    key.privateKey = (await importJWK(JSON.parse(opened) as JWK, key.row.alg)) as CryptoKey;
    return key.privateKey;
  }

  /**
   * The key that signs `alg` now: the newest whose `signs_from` has come and that is not retired.
   * A key rotated away before its own delay ended (retired before it signed) never signs.
   */
  async #signingKey(alg: IdTokenAlg): Promise<LoadedKey> {
    const now = this.#clock.now();
    const key = (await this.#current()).find((k) => k.row.alg === alg && statusOf(k.row, now) === 'signing');
    if (!key) throw new Error(`no ${alg} signing key: ensureSigningKeys must run at start`);
    return key;
  }

  /**
   * Reads the keys (a cached no-op almost always) and opens the private key that signs `alg` now,
   * so a caller can fail before it changes anything: an outage or a key that will not unseal (a
   * changed SESSION_SECRET) then leaves a code or refresh token unconsumed.
   */
  async ready(alg: IdTokenAlg): Promise<void> {
    await this.#privateKey(await this.#signingKey(alg));
  }

  /** Signs a JWT (`typ` JWT) with the current key of `alg`, naming it by `kid`. */
  async sign(payload: JWTPayload, alg: IdTokenAlg): Promise<string> {
    const key = await this.#signingKey(alg);
    return new SignJWT(payload)
      .setProtectedHeader({ alg, kid: key.row.kid, typ: 'JWT' })
      .sign(await this.#privateKey(key));
  }

  /**
   * OI-15, OI-18: an `id_token_hint` is an ID token this server signed (a published `kid` of the
   * header's `alg`, a valid signature, `iss` this issuer) with a string `sub` and one `aud`; its
   * expiry is not checked (OpenID Connect Core §3.1.2.1 and RP-Initiated Logout §2 allow an
   * expired one: it names whom the client believes is signed in, it grants nothing). Anything
   * else, a malformed string included, is undefined; never an exception.
   */
  async verifyIdTokenHint(jwt: string, issuer: string): Promise<IdTokenHint | undefined> {
    let header;
    try {
      header = decodeProtectedHeader(jwt);
    } catch {
      return undefined;
    }
    const key = (await this.#jwksKeys()).find((k) => k.row.kid === header.kid && k.row.alg === header.alg);
    if (!key) return undefined;
    let payload: unknown;
    try {
      key.publicKey ??= (await importJWK(key.publicJwk, key.row.alg)) as CryptoKey;
      const verified = await compactVerify(jwt, key.publicKey, { algorithms: [key.row.alg] });
      payload = JSON.parse(new TextDecoder().decode(verified.payload));
    } catch {
      return undefined;
    }
    if (typeof payload !== 'object' || payload === null) return undefined;
    const { iss, sub, aud } = payload as Record<string, unknown>;
    if (iss !== issuer || typeof sub !== 'string' || typeof aud !== 'string') return undefined;
    return { sub, aud };
  }

  /** The keys published in the JWKS now (see jwks()). */
  async #jwksKeys(): Promise<LoadedKey[]> {
    const now = this.#clock.now();
    return (await this.#current()).filter(
      (k) => k.row.retired_at === null || Number(k.row.retired_at) + ID_TOKEN_TTL_MS > now,
    );
  }

  /**
   * The JWKS (RFC 7517 §5): every key that signs, will sign, or signed a token that may still be
   * valid. Changes only when keys rotate.
   */
  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: (await this.#jwksKeys()).map((k) => k.publicJwk) };
  }
}
