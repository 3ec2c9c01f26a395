import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Config } from '@latchkey/config';
import type { Clock } from '@latchkey/core';
import { createSealer, type Sealer } from '@latchkey/credentials';
import type { Db } from '@latchkey/db';
import { readCookie } from '../http/cookies.ts';
import { isHttps } from '../session/portal-session.ts';
import { inStore } from '../session/store-failure.ts';
import { claimLoginTransaction } from './login-transaction.repository.ts';

/** As long as the authorization code: the user has ten minutes to sign in. */
export const LOGIN_TRANSACTION_TTL_MS = 10 * 60 * 1000;

const USED_KEY_PREFIX = 'portal-tx-used:';

/**
 * A sealed transaction: `v1.` and base64url. Its longest (a 2,048-character return path, see
 * return-to.ts) is about 3,300 characters, within the 4,096 bytes a browser keeps for a cookie.
 */
const SEALED = /^v1\.[A-Za-z0-9_-]{1,4000}$/;

/** What the callback needs to finish a sign-in this browser started (RFC 9700 §2.1.1, §4.7). */
export interface LoginTransaction {
  state: string;
  codeVerifier: string;
  returnTo: string;
  /** The issuer the authorization response must name (MX-01). */
  issuer: string;
}

interface SealedTransaction extends LoginTransaction {
  /** When the transaction stops being accepted, whatever the cookie's Max-Age (HD-15). */
  expiresAt: number;
}

/**
 * DD-9: the transaction cookie is SameSite=Lax, unlike the session's: the return
 * from the authorization server is a cross-site top-level navigation, which carries Lax
 * cookies and not Strict ones (BF-CK-01).
 */
export function transactionCookieName(config: Config): string {
  return isHttps(config) ? '__Host-lk_portal_tx' : 'lk_portal_tx';
}

function cookieOptions(config: Config) {
  return { httpOnly: true, sameSite: 'lax', secure: isHttps(config), path: '/' } as const;
}

/**
 * HD-15: the transaction is sealed with AES-256-GCM under a key derived from SESSION_SECRET
 * (HKDF), its own and not the session tokens' (TS-03), and bound by its AAD to this purpose: the
 * browser carries it but can neither read the verifier nor alter the state, return path,
 * issuer or expiry, and no other value this server seals passes for one.
 */
export function loginTransactionSealer(sessionSecret: string): Sealer {
  return createSealer(sessionSecret, {
    salt: 'latchkey-bff',
    info: 'login transaction',
    aad: 'latchkey-portal-login-transaction',
  });
}

/** The sealed fields, or undefined for anything that is not a transaction this server sealed. */
function parseSealed(plaintext: string): SealedTransaction | undefined {
  let value: unknown;
  try {
    value = JSON.parse(plaintext);
  } catch {
    return undefined;
  }
  const v = value as Partial<Record<keyof SealedTransaction, unknown>> | null;
  if (typeof v !== 'object' || v === null) return undefined;
  const { state, codeVerifier, returnTo, issuer, expiresAt } = v;
  if (
    typeof state !== 'string' ||
    typeof codeVerifier !== 'string' ||
    typeof returnTo !== 'string' ||
    typeof issuer !== 'string' ||
    typeof expiresAt !== 'number'
  ) {
    return undefined;
  }
  return { state, codeVerifier, returnTo, issuer, expiresAt };
}

/** The used-mark's key is a digest of the state, so the table does not list states. */
function usedKeyOf(state: string): string {
  return `${USED_KEY_PREFIX}${createHash('sha256').update(state).digest('hex')}`;
}

export interface LoginTransactions {
  /**
   * Seals a new transaction into the browser's transaction cookie; nothing is stored (HD-15).
   * It replaces the one a sign-in started before in this browser: one sign-in in progress per
   * browser, the latest (PK-09).
   */
  start(res: Response, transaction: LoginTransaction): void;
  /**
   * Takes the transaction the cookie carries and clears the cookie. Undefined when there is no
   * cookie, it does not open under this server's key (altered, forged, sealed for another
   * purpose), it expired, or a callback already took it (BF-ST-02, BF-ST-03, HD-15).
   */
  take(req: Request, res: Response): Promise<LoginTransaction | undefined>;
}

export function loginTransactions(config: Config, db: Db, clock: Clock): LoginTransactions {
  const name = transactionCookieName(config);
  const options = cookieOptions(config);
  const sealer = loginTransactionSealer(config.sessionSecret);

  return {
    start(res, transaction) {
      const sealed: SealedTransaction = { ...transaction, expiresAt: clock.now() + LOGIN_TRANSACTION_TTL_MS };
      res.cookie(name, sealer.seal(JSON.stringify(sealed)), { ...options, maxAge: LOGIN_TRANSACTION_TTL_MS });
    },

    async take(req, res) {
      const value = readCookie(req, name);
      res.cookie(name, '', { ...options, maxAge: 0 });
      if (value === undefined || !SEALED.test(value)) return undefined;
      const plaintext = sealer.open(value);
      const sealed = plaintext === undefined ? undefined : parseSealed(plaintext);
      if (!sealed || sealed.expiresAt <= clock.now()) return undefined;
      // Single use without a row per started sign-in: the first callback to present the
      // transaction marks its state used, until the transaction would have expired anyway; a
      // replay, or a parallel callback with a copy of the cookie, finds the mark (BF-ST-03).
      if (!(await inStore(claimLoginTransaction(db, usedKeyOf(sealed.state), sealed.expiresAt)))) return undefined;
      const { expiresAt: _expiry, ...transaction } = sealed;
      return transaction;
    },
  };
}
