/**
 * The one registry of OAuth scopes (RFC 6749 §3.3) and personal-access-token scopes (SC-01).
 * Every place that names a scope reads it from here: the authorize and token endpoints, the
 * consent page, the metadata's `scopes_supported`, the API's field guards, the account API, the
 * CLI and the portal. Adding a scope is one entry; guarding a GraphQL field with one is one line
 * (`extensions: requiresScope('email')` on the field, apps/api/src/graphql).
 */
export const SCOPES = {
  openid: {
    sentence: 'Sign you in with your Latchkey account',
    thirdParty: true,
    // OI-01: asks for an ID token (OpenID Connect Core §3.1.2.1), not for access to anything: any
    // client may ask for it, none has it by default (SC-03) and no personal access token holds it.
    signIn: true,
  },
  profile: { sentence: 'See your user id and name', thirdParty: true, signIn: false },
  email: { sentence: 'See your email address', thirdParty: true, signIn: false },
  account: {
    sentence: 'Manage your API clients and API tokens',
    // SC-01: only the portal's own client (first party) may hold it: /account/* answers 403
    // insufficient_scope to every other token (it replaces DD-8's "portal token" check).
    thirdParty: false,
    signIn: false,
  },
} as const satisfies Record<string, { sentence: string; thirdParty: boolean; signIn: boolean }>;

export type Scope = keyof typeof SCOPES;

/** Registry order: how scopes are listed on the consent page, in tokens and in `scope` strings. */
export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

/**
 * What a personal access token may hold, and the default of a third-party client and of a PAT
 * (SC-03, SC-07): every third-party scope that grants access, so not `openid` (OI-01).
 */
export const THIRD_PARTY_SCOPES: readonly Scope[] = ALL_SCOPES.filter((s) => SCOPES[s].thirdParty && !SCOPES[s].signIn);

/** Every scope that grants access (not `openid`): the portal's own client's default (SC-01, OI-01). */
export const ACCESS_SCOPES: readonly Scope[] = ALL_SCOPES.filter((s) => !SCOPES[s].signIn);

/** What any client may ask for: the third-party scopes and `openid`, the metadata's `scopes_supported`. */
export const REQUESTABLE_SCOPES: readonly Scope[] = ALL_SCOPES.filter((s) => SCOPES[s].thirdParty);

export function isScope(name: string): name is Scope {
  return Object.hasOwn(SCOPES, name);
}

/** The scopes in registry order, each once. */
export function sortScopes(scopes: Iterable<Scope>): Scope[] {
  const set = new Set(scopes);
  return ALL_SCOPES.filter((s) => set.has(s));
}

/** The space-delimited form of RFC 6749 §3.3, in registry order. */
export function formatScope(scopes: Iterable<Scope>): string {
  return sortScopes(scopes).join(' ');
}

export type ParsedScope = { ok: true; scopes: Scope[] } | { ok: false; unknown: string[] };

/**
 * Parses a `scope` parameter (RFC 6749 §3.3: space-delimited, case-sensitive, order and repeats
 * meaningless). Every name must be in the registry: an unknown one is refused (SC-02). An empty or
 * all-space value parses to no scopes; the caller decides what none means.
 */
export function parseScope(value: string): ParsedScope {
  const names = value.split(' ').filter((name) => name !== '');
  const unknown = names.filter((name) => !isScope(name));
  if (unknown.length > 0) return { ok: false, unknown: [...new Set(unknown)] };
  return { ok: true, scopes: sortScopes(names as Scope[]) };
}

/** Reads a stored `scope` column (space-delimited, written by formatScope); unknown names are dropped. */
export function storedScopes(value: string | null | undefined): Scope[] {
  if (!value) return [];
  return sortScopes(value.split(' ').filter(isScope));
}

/** True when every scope of `wanted` is in `held`. */
export function coversScopes(held: readonly Scope[], wanted: readonly Scope[]): boolean {
  return wanted.every((s) => held.includes(s));
}
