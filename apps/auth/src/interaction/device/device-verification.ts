import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { constantTimeEqual, createSealer, type Sealer } from '@latchkey/credentials';
import type { AuthDeps } from '../../deps.ts';
import { newCsrfToken } from '../../http/csrf.ts';
import { ensureVisitorNonce, visitorNonce } from '../../http/visitor.ts';

/**
 * DV-17: a user code the browser entered and the server found pending, between the code page
 * and the decision. It never rides in a form as the request itself: for a signed-in browser it
 * lives in the server-side session and forms name it by a random key, with a CSRF token of its
 * own; for a visitor (who must sign in first) nothing is stored (HD-06) and the key is the code
 * sealed with AES-GCM under SESSION_SECRET and bound to the visitor cookie, so it can be neither
 * read from the sign-in page's URL nor used from another browser. After the sign-in it moves
 * into the new session (`adoptVerification`).
 */
export interface DeviceVerification {
  key: string;
  /** The device authorization the code named when it was entered (the decision must match it). */
  deviceAuthorizationId: string;
  /** Normalised (`WDJBMJHT`): the page looks the request up again, so an expired one is refused. */
  userCode: string;
  createdAt: number;
  csrfToken: string;
}

declare module 'express-session' {
  interface SessionData {
    deviceVerifications: Record<string, DeviceVerification>;
  }
}

/** A device code lives 10 minutes (DV-03); a verification a little longer, for the sign-in on the way. */
const VERIFICATION_TTL_MS = 15 * 60 * 1000;
/** Several tabs may each hold a code; the oldest is dropped beyond this. */
const MAX_VERIFICATIONS = 5;
/** A sealed key is ~150 characters; anything much longer is not one of ours. */
export const MAX_VERIFICATION_KEY_LENGTH = 512;

const sealedVerification = z.object({
  deviceAuthorizationId: z.string(),
  userCode: z.string(),
  createdAt: z.number(),
  visitor: z.string(),
});

const sealersBySecret = new Map<string, Sealer>();

/** Its own purpose: a sealed authorization request (pending-authorization.ts) never opens here, nor this there. */
function sealerFor(deps: AuthDeps): Sealer {
  const secret = deps.config.sessionSecret;
  let sealer = sealersBySecret.get(secret);
  if (!sealer) {
    sealer = createSealer(secret, {
      salt: 'latchkey-auth',
      info: 'device verification',
      aad: 'latchkey-auth-device-verification',
    });
    sealersBySecret.set(secret, sealer);
  }
  return sealer;
}

function live(req: Request, now: number): Record<string, DeviceVerification> {
  const entries = Object.entries(req.session.deviceVerifications ?? {}).filter(
    ([, v]) => now - v.createdAt < VERIFICATION_TTL_MS,
  );
  return Object.fromEntries(entries.sort(([, a], [, b]) => a.createdAt - b.createdAt).slice(-MAX_VERIFICATIONS));
}

function storeInSession(req: Request, verification: DeviceVerification): DeviceVerification {
  const all = live(req, verification.createdAt);
  const keys = Object.keys(all);
  if (keys.length >= MAX_VERIFICATIONS) delete all[keys[0]!];
  all[verification.key] = verification;
  req.session.deviceVerifications = all;
  return verification;
}

/** Remembers a code found pending: in the session when signed in, else sealed to the visitor cookie. */
export function saveVerification(
  deps: AuthDeps,
  req: Request,
  res: Response,
  found: { deviceAuthorizationId: string; userCode: string },
): DeviceVerification {
  const createdAt = deps.clock.now();
  if (req.session.userId === undefined) {
    const visitor = ensureVisitorNonce(deps, req, res);
    const key = sealerFor(deps).seal(JSON.stringify({ ...found, createdAt, visitor }));
    return { key, ...found, createdAt, csrfToken: newCsrfToken() };
  }
  return storeInSession(req, {
    key: randomBytes(16).toString('base64url'),
    ...found,
    createdAt,
    csrfToken: newCsrfToken(),
  });
}

/** A visitor's sealed code, if it opens under this server's key, is this browser's and is recent. */
function openSealed(deps: AuthDeps, req: Request, key: string) {
  const visitor = visitorNonce(deps, req);
  const plaintext = visitor === undefined ? undefined : sealerFor(deps).open(key);
  if (visitor === undefined || plaintext === undefined) return undefined;
  const parsed = sealedVerification.safeParse(JSON.parse(plaintext));
  if (!parsed.success || !constantTimeEqual(parsed.data.visitor, visitor)) return undefined;
  if (deps.clock.now() - parsed.data.createdAt >= VERIFICATION_TTL_MS) return undefined;
  return parsed.data;
}

/** The verification `key` names in this session, if it has not expired. */
export function findVerification(deps: AuthDeps, req: Request, key: unknown): DeviceVerification | undefined {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_VERIFICATION_KEY_LENGTH) return undefined;
  const stored = req.session.deviceVerifications;
  const verification = stored && Object.hasOwn(stored, key) ? stored[key] : undefined;
  if (!verification || deps.clock.now() - verification.createdAt >= VERIFICATION_TTL_MS) return undefined;
  return verification;
}

/**
 * The verification `key` names: one in this session, or, right after the sign-in it was sealed
 * for, a visitor's sealed one, which then moves into the session under a new random key.
 */
export function adoptVerification(deps: AuthDeps, req: Request, key: unknown): DeviceVerification | undefined {
  const stored = findVerification(deps, req, key);
  if (stored || req.session.userId === undefined || typeof key !== 'string') return stored;
  if (key.length > MAX_VERIFICATION_KEY_LENGTH) return undefined;
  const sealed = openSealed(deps, req, key);
  if (!sealed) return undefined;
  return storeInSession(req, {
    key: randomBytes(16).toString('base64url'),
    deviceAuthorizationId: sealed.deviceAuthorizationId,
    userCode: sealed.userCode,
    createdAt: sealed.createdAt,
    csrfToken: newCsrfToken(),
  });
}

/** A decision is taken once: its verification goes. */
export function removeVerification(req: Request, key: string): void {
  if (!req.session.deviceVerifications || !Object.hasOwn(req.session.deviceVerifications, key)) return;
  const { [key]: _removed, ...rest } = req.session.deviceVerifications;
  if (Object.keys(rest).length === 0) delete req.session.deviceVerifications;
  else req.session.deviceVerifications = rest;
}
