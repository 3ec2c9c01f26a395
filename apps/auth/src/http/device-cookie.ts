import { createHmac, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { parse, serialize } from 'cookie';
import { normalizeEmail } from '@latchkey/core';
import { constantTimeEqual } from '@latchkey/credentials';

/**
 * HD-13 device cookie (OWASP "Slow brute force" / device cookies): a browser that has signed in
 * to an account carries a cookie naming a random device id and that account, signed by the
 * server. Past the cap on failed sign-ins for an account, only browsers with such a cookie for
 * it are still let try, so an attacker guessing from elsewhere cannot lock the owner out.
 *
 * The account is named by a keyed digest of its normalized email, never the email itself: the
 * cookie (and the rate-limit keys, which use the same digest) reveal no address. The keys
 * derive from SESSION_SECRET, as the visitor cookie's do: rotating it forgets every device.
 *
 * Over https the cookie carries the `__Host-` prefix; its name is its own (DD-9: browsers
 * share cookies across ports on localhost).
 */
const DEVICE_COOKIE_TTL_S = 365 * 24 * 60 * 60;
/** A shared computer may be signed in to a few accounts; the most recent ones are kept. */
const MAX_ACCOUNTS_PER_DEVICE = 5;
const ID = '[A-Za-z0-9_-]{22}';
const COOKIE_VALUE = new RegExp(
  `^(${ID})\\.(${ID}(?:~${ID}){0,${MAX_ACCOUNTS_PER_DEVICE - 1}})\\.([A-Za-z0-9_-]{43})$`,
);

/** What the device-cookie functions need of the app's dependencies. */
export interface DeviceCookieDeps {
  config: { auth: { url: string }; sessionSecret: string };
}

export function deviceCookieName(authUrl: string): string {
  return authUrl.startsWith('https://') ? '__Host-lk_auth_device' : 'lk_auth_device';
}

interface DeviceKeys {
  account: Buffer;
  mac: Buffer;
}

// Derived once per secret (a process has one; tests start several systems).
const keysBySecret = new Map<string, DeviceKeys>();

function keysFor(secret: string): DeviceKeys {
  let keys = keysBySecret.get(secret);
  if (!keys) {
    keys = {
      account: createHmac('sha256', secret).update('latchkey-auth account digest v1').digest(),
      mac: createHmac('sha256', secret).update('latchkey-auth device cookie v1').digest(),
    };
    keysBySecret.set(secret, keys);
  }
  return keys;
}

/** The account's name in device cookies and rate-limit keys: 128 bits of a keyed digest. */
export function accountDigest(deps: DeviceCookieDeps, email: string): string {
  return createHmac('sha256', keysFor(deps.config.sessionSecret).account)
    .update(normalizeEmail(email))
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

function mac(deps: DeviceCookieDeps, deviceId: string, accounts: string): string {
  return createHmac('sha256', keysFor(deps.config.sessionSecret).mac)
    .update(`${deviceId}.${accounts}`)
    .digest('base64url');
}

interface Device {
  id: string;
  accounts: string[];
}

/** The browser's device cookie, when it sent one that this server signed. */
function presentedDevice(deps: DeviceCookieDeps, req: Request): Device | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const value = parse(header)[deviceCookieName(deps.config.auth.url)];
  const match = value === undefined ? null : COOKIE_VALUE.exec(value);
  if (!match) return undefined;
  const [, id, accounts, signature] = match as unknown as [string, string, string, string];
  if (!constantTimeEqual(signature, mac(deps, id, accounts))) return undefined;
  return { id, accounts: accounts.split('~') };
}

/**
 * The device id when this browser has signed in to the account `digest` names before (its
 * cookie says so, signed by this server), else undefined.
 */
export function knownDeviceFor(deps: DeviceCookieDeps, req: Request, digest: string): string | undefined {
  const device = presentedDevice(deps, req);
  return device?.accounts.includes(digest) ? device.id : undefined;
}

/**
 * After a successful sign-in (or sign-up) with `email`: the browser's device cookie names this
 * account too (a new device id if it had none). Like the session cookie, a Secure cookie is
 * withheld from a request that did not arrive over TLS.
 */
export function rememberDevice(deps: DeviceCookieDeps, req: Request, res: Response, email: string): void {
  const secure = deps.config.auth.url.startsWith('https://');
  if (secure && !req.secure) return;
  const device = presentedDevice(deps, req) ?? { id: randomBytes(16).toString('base64url'), accounts: [] };
  const digest = accountDigest(deps, email);
  const accounts = [digest, ...device.accounts.filter((a) => a !== digest)].slice(0, MAX_ACCOUNTS_PER_DEVICE).join('~');
  res.append(
    'Set-Cookie',
    serialize(deviceCookieName(deps.config.auth.url), `${device.id}.${accounts}.${mac(deps, device.id, accounts)}`, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: '/',
      maxAge: DEVICE_COOKIE_TTL_S,
    }),
  );
}
