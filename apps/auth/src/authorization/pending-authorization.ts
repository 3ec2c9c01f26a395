import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { ALL_SCOPES, type Scope } from '@latchkey/contracts';
import { constantTimeEqual } from '@latchkey/credentials';
import type { AuthDeps } from '../deps.ts';
import type { Prompt } from './check-prompt.ts';
import type { PendingResource } from './check-resource.ts';
import { newCsrfToken } from '../http/csrf.ts';
import { ensureVisitorNonce, visitorNonce, visitorSealer } from '../http/visitor.ts';

/**
 * A verified authorization request waiting for the user to sign in or decide. It is never in
 * a user-controlled `return_to` (AZ-20): for a signed-in browser it lives in the server-side
 * session and forms refer to it by a random id; for a visitor (nobody signed in) nothing is
 * stored (HD-06) and the id is the request itself, sealed with AES-GCM under a key derived
 * from SESSION_SECRET and bound to the visitor's cookie, so it can be neither read, altered
 * nor used from another browser. Signing in moves it into the new session (establishSession).
 */
export interface PendingAuthorization {
  id: string;
  clientId: string;
  redirectUri: string;
  state?: string;
  codeChallenge?: string;
  /** What the request's `prompt` asks to do again (AZ-30, AZ-31); prompt=none is never pending. */
  prompt?: Prompt[];
  /** What the request asks for, checked against the client (SC-02) or its default (SC-03). */
  scopes: Scope[];
  /** OI-04: the request's `nonce`, stored with its code and echoed in that code's ID token. */
  nonce?: string;
  /** RS-01, RS-11: the registered resource server the request names; absent, the Latchkey API (RS-03). */
  resource?: PendingResource;
  createdAt: number;
  /**
   * No session, prompt=login, a sign-in older than max_age or an id_token_hint about someone else:
   * credentials must be entered for this request (AZ-30, OI-15, OI-17).
   */
  loginRequired: boolean;
  /**
   * CS-01: the consent form's CSRF token, bound to this request and this session. A visitor's
   * sealed request gets a fresh random one each time it is opened, which no form carries:
   * consent needs a session, and signing in mints the token that is used.
   */
  csrfToken: string;
}

declare module 'express-session' {
  interface SessionData {
    authorizations: Record<string, PendingAuthorization>;
  }
}

/** Long enough to create an account on the way; short enough that stale tabs expire. */
export const PENDING_TTL_MS = 30 * 60 * 1000;
/**
 * Longest request id a form or link carries: a sealed request holding a 4,096-character state
 * (MAX_STATE_LENGTH) and a 512-character nonce (MAX_NONCE_LENGTH) whose every character JSON
 * escapes, in base64url (13,500), and a resource server's URI of at most 1,024 characters once
 * normalised (MAX_RESOURCE_LENGTH) whose every character JSON escapes (2,800 more).
 */
export const MAX_REQUEST_ID_LENGTH = 16_300;
/** Several tabs may each hold a request; the oldest is dropped beyond this. */
const MAX_PENDING = 10;

export interface NewPendingAuthorization {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string | undefined;
  prompt: Prompt[];
  scopes: Scope[];
  nonce: string | undefined;
  resource: PendingResource | undefined;
  loginRequired: boolean;
}

/** What a visitor's sealed request holds: the request, when it was made, and whose cookie it is bound to. */
const sealedRequest = z.object({
  clientId: z.string(),
  redirectUri: z.string(),
  state: z.string().optional(),
  codeChallenge: z.string().optional(),
  prompt: z.array(z.enum(['login', 'consent'])).optional(),
  scopes: z.array(z.enum(ALL_SCOPES as [Scope, ...Scope[]])),
  nonce: z.string().optional(),
  resource: z.object({ audience: z.string(), uri: z.string() }).optional(),
  createdAt: z.number(),
  visitor: z.string(),
});

function live(req: Request, now: number): Record<string, PendingAuthorization> {
  const entries = Object.entries(req.session.authorizations ?? {}).filter(([, p]) => now - p.createdAt < PENDING_TTL_MS);
  return Object.fromEntries(entries.sort(([, a], [, b]) => a.createdAt - b.createdAt).slice(-MAX_PENDING));
}

export function savePendingAuthorization(
  deps: AuthDeps,
  req: Request,
  res: Response,
  request: NewPendingAuthorization,
): PendingAuthorization {
  const fields = {
    clientId: request.clientId,
    redirectUri: request.redirectUri,
    ...(request.state !== undefined && { state: request.state }),
    ...(request.codeChallenge !== undefined && { codeChallenge: request.codeChallenge }),
    ...(request.prompt.length > 0 && { prompt: request.prompt }),
    scopes: request.scopes,
    ...(request.nonce !== undefined && { nonce: request.nonce }),
    ...(request.resource !== undefined && { resource: request.resource }),
    createdAt: deps.clock.now(),
  };
  if (req.session.userId === undefined) {
    const visitor = ensureVisitorNonce(deps, req, res);
    const id = visitorSealer(deps).seal(JSON.stringify({ ...fields, visitor }));
    return { id, ...fields, loginRequired: true, csrfToken: newCsrfToken() };
  }
  const pending: PendingAuthorization = {
    id: randomBytes(16).toString('base64url'),
    ...fields,
    loginRequired: request.loginRequired,
    csrfToken: newCsrfToken(),
  };
  const all = live(req, fields.createdAt);
  const ids = Object.keys(all);
  if (ids.length >= MAX_PENDING) delete all[ids[0]!];
  all[pending.id] = pending;
  req.session.authorizations = all;
  return pending;
}

/** A visitor's sealed request, if it opens under this server's key, is this browser's and has not expired. */
function openSealedRequest(deps: AuthDeps, req: Request, id: string): PendingAuthorization | undefined {
  const visitor = visitorNonce(deps, req);
  const plaintext = visitor === undefined ? undefined : visitorSealer(deps).open(id);
  if (visitor === undefined || plaintext === undefined) return undefined;
  const parsed = sealedRequest.safeParse(JSON.parse(plaintext));
  if (!parsed.success || !constantTimeEqual(parsed.data.visitor, visitor)) return undefined;
  const { visitor: _bound, ...fields } = parsed.data;
  if (deps.clock.now() - fields.createdAt >= PENDING_TTL_MS) return undefined;
  return { id, ...fields, loginRequired: true, csrfToken: newCsrfToken() };
}

/** The pending request `id` names, if it is this browser's and not expired. */
export function findPendingAuthorization(deps: AuthDeps, req: Request, id: unknown): PendingAuthorization | undefined {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_REQUEST_ID_LENGTH) return undefined;
  const stored = req.session.authorizations;
  const pending = stored && Object.hasOwn(stored, id) ? stored[id] : undefined;
  if (pending) return deps.clock.now() - pending.createdAt < PENDING_TTL_MS ? pending : undefined;
  // Once someone is signed in, requests live in the session: a sealed one was used up by the
  // sign-in that carried it over (or belongs to a tab from before it, as a session's did).
  return req.session.userId === undefined ? openSealedRequest(deps, req, id) : undefined;
}

/** Forgets a request kept in the session; a visitor's sealed one expires on its own. */
export function removePendingAuthorization(req: Request, id: string): void {
  if (!req.session.authorizations || !Object.hasOwn(req.session.authorizations, id)) return;
  const { [id]: _removed, ...rest } = req.session.authorizations;
  if (Object.keys(rest).length === 0) delete req.session.authorizations;
  else req.session.authorizations = rest;
}
