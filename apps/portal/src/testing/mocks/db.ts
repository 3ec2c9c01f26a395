import type {
  ApplicationJson,
  ClientJson,
  ClientSecretJson,
  MeJson,
  SecurityEventJson,
  TokenJson,
} from '@latchkey/contracts';

/**
 * The BFF's data as the MSW handlers serve it: one signed-in user, their clients and tokens,
 * in the account contract's types (packages/contracts). Reset after every test (setup-tests.ts).
 */
export interface MockDb {
  user: MeJson;
  signedIn: boolean;
  clients: ClientJson[];
  /** Each confidential client's live secrets by client id, oldest first; none listed means one made on first read. */
  clientSecrets: Record<string, ClientSecretJson[]>;
  tokens: TokenJson[];
  applications: ApplicationJson[];
  /** AU-08: the user's security log, newest first, as the account API keeps it. */
  securityEvents: SecurityEventJson[];
  /** Every request the handlers saw, for assertions on headers, query and bodies. */
  requests: { method: string; path: string; query: URLSearchParams; headers: Headers; body: unknown }[];
}

const DAY = 24 * 60 * 60 * 1000;
export const NOW = Date.now();
export const iso = (ms: number): string => new Date(ms).toISOString();

export function makeClient(overrides: Partial<ClientJson> = {}): ClientJson {
  const id = overrides.id ?? `lkc_${Math.random().toString(36).slice(2, 14)}`;
  const redirectUri = overrides.redirect_uris?.[0] ?? overrides.redirect_uri ?? 'https://dashboard.acme.test/callback';
  return {
    id,
    client_id: id,
    name: 'Acme Dashboard',
    redirect_uri: redirectUri,
    redirect_uris: [redirectUri],
    post_logout_redirect_uri: null,
    description: null,
    client_uri: null,
    policy_uri: null,
    tos_uri: null,
    public: false,
    id_token_signed_response_alg: 'RS256',
    device_grant: false,
    created_at: iso(NOW - 30 * DAY),
    status: 'active',
    revoked_at: null,
    ...overrides,
  };
}

export function makeSecret(overrides: Partial<ClientSecretJson> = {}): ClientSecretJson {
  return {
    id: overrides.id ?? `cs_${Math.random().toString(36).slice(2, 12)}`,
    last4: 'Ab12',
    created_at: iso(NOW - 30 * DAY),
    expires_at: null,
    last_used_at: null,
    ...overrides,
  };
}

export function makeToken(overrides: Partial<TokenJson> = {}): TokenJson {
  return {
    id: overrides.id ?? `tok_${Math.random().toString(36).slice(2, 12)}`,
    name: 'CI deploys',
    description: null,
    kind: 'pat',
    last4: 'a1B2',
    created_at: iso(NOW - 10 * DAY),
    expires_at: iso(NOW + 355 * DAY),
    last_used_at: null,
    last_used_ip: null,
    last_used_user_agent: null,
    status: 'active',
    scopes: ['profile', 'email'],
    replaced_by: null,
    ...overrides,
  };
}

export function makeApplication(overrides: Partial<ApplicationJson> = {}): ApplicationJson {
  return {
    client_id: overrides.client_id ?? `lkc_${Math.random().toString(36).slice(2, 14)}`,
    name: 'Photo Printer',
    owner_name: 'Dev Eloper',
    first_authorized_at: iso(NOW - 20 * DAY),
    last_used_at: null,
    last_used_ip: null,
    last_used_user_agent: null,
    active_grants: 1,
    scopes: ['profile', 'email'],
    registration: 'registered',
    host: null,
    ...overrides,
  };
}

let eventSequence = 0;

/**
 * An event of the user's log (AU-08), by default their own sign-in from a browser. Ids sort by
 * time as the server's do (`evt_` and the time in base 36): the mock pages by them.
 */
export function makeSecurityEvent(overrides: Partial<SecurityEventJson> = {}): SecurityEventJson {
  const createdAt = overrides.created_at ?? iso(NOW - DAY);
  eventSequence += 1;
  return {
    id: `evt_${Date.parse(createdAt).toString(36).padStart(9, '0')}${String(eventSequence).padStart(12, '0')}`,
    type: 'sign_in',
    user_id: 'usr_ada',
    actor: 'user',
    actor_id: 'usr_ada',
    ip: '203.0.113.7',
    user_agent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    target_type: null,
    target_id: null,
    outcome: 'success',
    created_at: createdAt,
    ...overrides,
  };
}

function initialDb(): MockDb {
  return {
    user: { id: 'usr_ada', name: 'Ada Lovelace', email: 'ada@example.test' },
    signedIn: true,
    clients: [],
    clientSecrets: {},
    tokens: [],
    applications: [],
    securityEvents: [],
    requests: [],
  };
}

export const db: MockDb = initialDb();

export function resetMockDb(): void {
  Object.assign(db, initialDb());
}

export { DAY };
