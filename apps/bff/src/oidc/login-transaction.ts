import { createHash, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Config } from '@latchkey/config';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import { readCookie } from '../http/cookies.ts';
import { isHttps } from '../session/portal-session.ts';
import { inStore } from '../session/store-failure.ts';
import type { TokenSealer } from '../session/token-sealing.ts';
import {
  deleteLoginTransaction,
  insertLoginTransaction,
  takeLoginTransaction,
} from './login-transaction.repository.ts';

/** As long as the authorization code: the user has ten minutes to sign in. */
export const LOGIN_TRANSACTION_TTL_MS = 10 * 60 * 1000;

const KEY_PREFIX = 'portal-tx:';

/** What the callback needs to finish a sign-in this browser started (RFC 9700 §2.1.1, §4.7). */
export interface LoginTransaction {
  state: string;
  codeVerifier: string;
  returnTo: string;
  /** The issuer the authorization response must name (MX-01). */
  issuer: string;
}

interface StoredTransaction {
  state: string;
  /** Sealed like the session's tokens. */
  codeVerifier: string;
  returnTo: string;
  issuer: string;
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

/** The row key is a digest of the cookie's value, so the table alone does not give the cookie. */
function keyOf(id: string): string {
  return `${KEY_PREFIX}${createHash('sha256').update(id).digest('hex')}`;
}

const ID = /^[A-Za-z0-9_-]{43}$/;

export interface LoginTransactions {
  /**
   * Stores a new transaction and points the browser's cookie at it. A transaction this
   * browser started before is deleted: one sign-in in progress per browser (PK-09).
   */
  start(req: Request, res: Response, transaction: LoginTransaction): Promise<void>;
  /**
   * Takes (reads and deletes) the transaction the cookie points to and clears the cookie.
   * Undefined when there is no cookie, no such transaction, or it expired (BF-ST-02, BF-ST-03).
   */
  take(req: Request, res: Response): Promise<LoginTransaction | undefined>;
}

export function loginTransactions(config: Config, db: Db, clock: Clock, sealer: TokenSealer): LoginTransactions {
  const name = transactionCookieName(config);
  const options = cookieOptions(config);

  function cookieId(req: Request): string | undefined {
    const value = readCookie(req, name);
    return value !== undefined && ID.test(value) ? value : undefined;
  }

  return {
    async start(req, res, transaction) {
      const previous = cookieId(req);
      if (previous !== undefined) await inStore(deleteLoginTransaction(db, keyOf(previous)));
      const id = randomBytes(32).toString('base64url');
      const stored: StoredTransaction = { ...transaction, codeVerifier: sealer.seal(transaction.codeVerifier) };
      await inStore(
        insertLoginTransaction(db, keyOf(id), JSON.stringify(stored), clock.now() + LOGIN_TRANSACTION_TTL_MS),
      );
      res.cookie(name, id, { ...options, maxAge: LOGIN_TRANSACTION_TTL_MS });
    },

    async take(req, res) {
      const id = cookieId(req);
      res.cookie(name, '', { ...options, maxAge: 0 });
      if (id === undefined) return undefined;
      const row = await inStore(takeLoginTransaction(db, keyOf(id)));
      if (!row || row.expiresAt <= clock.now()) return undefined;
      let stored: StoredTransaction;
      try {
        stored = JSON.parse(row.data) as StoredTransaction;
      } catch {
        return undefined;
      }
      const codeVerifier = sealer.open(stored.codeVerifier);
      if (codeVerifier === undefined) return undefined;
      return { state: stored.state, codeVerifier, returnTo: stored.returnTo, issuer: stored.issuer };
    },
  };
}
