import type { OAuthClient } from '../../features/clients/api/get-clients.ts';
import type { SessionUser } from '../../features/session/api/get-session.ts';
import type { AccessToken } from '../../features/tokens/api/get-tokens.ts';

/**
 * The BFF's data as the MSW handlers serve it: one signed-in user, their clients and tokens.
 * Reset after every test (setup-tests.ts).
 */
export interface MockDb {
  user: SessionUser;
  signedIn: boolean;
  clients: OAuthClient[];
  tokens: AccessToken[];
  /** Every request the handlers saw, for assertions on headers and bodies. */
  requests: { method: string; path: string; headers: Headers; body: unknown }[];
}

const DAY = 24 * 60 * 60 * 1000;
export const NOW = Date.now();
export const iso = (ms: number): string => new Date(ms).toISOString();

export function makeClient(overrides: Partial<OAuthClient> = {}): OAuthClient {
  const id = overrides.id ?? `lkc_${Math.random().toString(36).slice(2, 14)}`;
  return {
    id,
    client_id: id,
    name: 'Acme Dashboard',
    redirect_uri: 'https://dashboard.acme.test/callback',
    post_logout_redirect_uri: null,
    created_at: iso(NOW - 30 * DAY),
    status: 'active',
    revoked_at: null,
    ...overrides,
  };
}

export function makeToken(overrides: Partial<AccessToken> = {}): AccessToken {
  return {
    id: overrides.id ?? `tok_${Math.random().toString(36).slice(2, 12)}`,
    name: 'CI deploys',
    kind: 'pat',
    last4: 'a1B2',
    created_at: iso(NOW - 10 * DAY),
    expires_at: iso(NOW + 355 * DAY),
    last_used_at: null,
    status: 'active',
    ...overrides,
  };
}

function initialDb(): MockDb {
  return {
    user: { id: 'usr_ada', name: 'Ada Lovelace', email: 'ada@example.test' },
    signedIn: true,
    clients: [],
    tokens: [],
    requests: [],
  };
}

export const db: MockDb = initialDb();

export function resetMockDb(): void {
  Object.assign(db, initialDb());
}

export { DAY };
