import {
  http,
  HttpResponse,
  type DefaultBodyType,
  type HttpResponseResolver,
  type PathParams,
  type StrictRequest,
} from 'msw';
import {
  BFF_ACCOUNT_BASE,
  isRollOverlap,
  isScope,
  isSecurityEventType,
  MAX_CLIENT_SECRETS,
  MAX_DESCRIPTION_LENGTH,
  ROLL_OVERLAPS,
  SCOPES,
  SECRET_EXPIRIES,
  SECURITY_LOG_PAGE_SIZE,
  THIRD_PARTY_SCOPES,
  type AccountMethod,
  type AccountPath,
} from '@latchkey/contracts';
import type {
  ApplicationJson,
  MeJson,
  ClientJson,
  ClientSecretJson,
  CreateClientSecretRequest,
  CreatedClientJson,
  CreatedClientSecretJson,
  CreatedTokenJson,
  ErrorJson,
  SessionJson,
  RollTokenRequest,
  SecurityLogJson,
  TokenJson,
  UpdateClientRequest,
  UpdateTokenRequest,
} from '@latchkey/contracts';
import { db, iso, makeClient, makeSecret, makeToken } from './db.ts';

/**
 * The BFF's `/bff/*` interface (the portal contract) over the mock db. Like the real BFF,
 * a POST without `X-Latchkey-Portal: 1` is 403 and any call without a session is 401. Every
 * answer is typed by the account contract (packages/contracts), as the real BFF's are.
 */

const refusal = (status: number, error: string, description: string, field?: string) =>
  HttpResponse.json<ErrorJson>({ error, error_description: description, ...(field && { field }) }, { status });
const unauthenticated = () => refusal(401, 'unauthenticated', 'Sign in to continue.');
const forbidden = () => refusal(403, 'forbidden', 'This request did not come from the portal.');

async function record(request: StrictRequest<DefaultBodyType>): Promise<unknown> {
  const text = request.method === 'GET' ? '' : await request.clone().text();
  const body = text ? (JSON.parse(text) as unknown) : undefined;
  const url = new URL(request.url);
  db.requests.push({
    method: request.method,
    path: url.pathname,
    query: url.searchParams,
    headers: request.headers,
    body,
  });
  return body;
}

function guard(request: StrictRequest<DefaultBodyType>): Response | undefined {
  if (request.method !== 'GET' && request.headers.get('X-Latchkey-Portal') !== '1') return forbidden();
  if (!db.signedIn) return unauthenticated();
  return undefined;
}

const validationFailed = (field: string, description: string) => refusal(400, 'validation_failed', description, field);

/** A route of the account table (packages/contracts), at the BFF's URL for it. */
function accountRoute<P extends AccountPath>(
  method: AccountMethod<P>,
  path: P,
  resolver: HttpResponseResolver<PathParams<'id' | 'secretId'>, DefaultBodyType>,
) {
  const url = `${BFF_ACCOUNT_BASE}${path}`;
  if (method === 'GET') return http.get(url, resolver);
  if (method === 'PATCH') return http.patch(url, resolver);
  return http.post(url, resolver);
}

/** The value a roll hands out, as the account API does once (TR-03). */
export const ROLLED_TOKEN_VALUE = 'lkp_ROLLEDvalueROLLEDvalueROLLEDvalu34Rr';

/** The new secret the mock hands out, as the account API does once (SR-01). */
export const NEW_CLIENT_SECRET = 'lks_NEWsecretNEWsecretNEWsecret0n3W5';

/** A confidential client's live secrets; one made for a client listed with none, as migrated. */
function secretsOf(client: ClientJson): ClientSecretJson[] {
  if (client.public) return [];
  return (db.clientSecrets[client.id] ??= [makeSecret({ id: `cs_${client.id}`, created_at: client.created_at })]);
}

/** As core's managedClient: only the user's active, confidential clients' secrets change (SR-08). */
function managedSecrets(id: string | readonly string[] | undefined): ClientSecretJson[] | Response {
  const client = db.clients.find((c) => c.id === id);
  if (!client) return refusal(404, 'not_found', 'No such client.');
  if (client.status === 'revoked')
    return refusal(409, 'conflict', 'This client is revoked; its secrets cannot change.');
  if (client.public) return refusal(409, 'conflict', 'This is a public client: it has no secrets.');
  return secretsOf(client);
}

export const handlers = [
  http.get('/bff/session', async ({ request }) => {
    await record(request);
    return guard(request) ?? HttpResponse.json<SessionJson>({ user: db.user, mcpUrl: 'https://api.latchkey.test/mcp' });
  }),

  http.post('/bff/logout', async ({ request }) => {
    await record(request);
    if (request.headers.get('X-Latchkey-Portal') !== '1') return forbidden();
    db.signedIn = false;
    return new HttpResponse(null, { status: 204 });
  }),

  accountRoute('GET', '/me', async ({ request }) => {
    await record(request);
    return guard(request) ?? HttpResponse.json<MeJson>(db.user);
  }),

  accountRoute('GET', '/clients', async ({ request }) => {
    await record(request);
    return guard(request) ?? HttpResponse.json<ClientJson[]>(db.clients);
  }),

  accountRoute('POST', '/clients', async ({ request }) => {
    const body = (await record(request)) as {
      name?: string;
      redirect_uri?: string;
      post_logout_redirect_uri?: string;
      public?: boolean;
      id_token_signed_response_alg?: ClientJson['id_token_signed_response_alg'];
      device_grant?: boolean;
    };
    const refused = guard(request);
    if (refused) return refused;
    if (!body.name) return validationFailed('name', 'Enter a client name of 1 to 100 characters.');
    if (body.redirect_uri?.includes('example.invalid')) {
      return validationFailed('redirect_uri', 'The redirect URL must not point at example.invalid.');
    }
    const client = makeClient({
      name: body.name,
      redirect_uri: body.redirect_uri ?? '',
      post_logout_redirect_uri: body.post_logout_redirect_uri ?? null,
      public: body.public === true,
      id_token_signed_response_alg: body.id_token_signed_response_alg ?? 'RS256',
      device_grant: body.device_grant === true,
      created_at: iso(Date.now()),
    });
    db.clients.unshift(client);
    // PC-01: a public client has no secret, and the answer carries none.
    if (client.public) return HttpResponse.json<CreatedClientJson>({ client }, { status: 201 });
    db.clientSecrets[client.id] = [makeSecret({ id: `cs_${client.id}`, last4: 'abcd', created_at: client.created_at })];
    return HttpResponse.json<CreatedClientJson>(
      { client, client_secret: 'lks_SECRETsecretSECRETsecret0123abcd' },
      { status: 201 },
    );
  }),

  accountRoute('GET', '/clients/:id', async ({ request, params }) => {
    await record(request);
    const refused = guard(request);
    if (refused) return refused;
    const client = db.clients.find((c) => c.id === params.id);
    return client ? HttpResponse.json<ClientJson>(client) : refusal(404, 'not_found', 'No such client.');
  }),

  accountRoute('PATCH', '/clients/:id', async ({ request, params }) => {
    const body = (await record(request)) as UpdateClientRequest;
    const refused = guard(request);
    if (refused) return refused;
    const client = db.clients.find((c) => c.id === params.id);
    if (!client) return refusal(404, 'not_found', 'No such client.');
    if (body.redirect_uris?.some((uri) => uri.includes('example.invalid'))) {
      return validationFailed('redirect_uris', 'The redirect URL must not point at example.invalid.');
    }
    const uris = body.redirect_uris ?? client.redirect_uris;
    Object.assign(client, {
      ...(body.name !== undefined && { name: body.name }),
      redirect_uri: uris[0],
      redirect_uris: uris,
      ...(body.post_logout_redirect_uri !== undefined && { post_logout_redirect_uri: body.post_logout_redirect_uri }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.client_uri !== undefined && { client_uri: body.client_uri }),
      ...(body.policy_uri !== undefined && { policy_uri: body.policy_uri }),
      ...(body.tos_uri !== undefined && { tos_uri: body.tos_uri }),
      ...(body.id_token_signed_response_alg !== undefined && {
        id_token_signed_response_alg: body.id_token_signed_response_alg,
      }),
      ...(body.device_grant !== undefined && { device_grant: body.device_grant }),
    });
    return HttpResponse.json<ClientJson>(client);
  }),

  accountRoute('POST', '/clients/:id/revoke', async ({ request, params }) => {
    await record(request);
    const refused = guard(request);
    if (refused) return refused;
    const client = db.clients.find((c) => c.id === params.id);
    if (!client) return refusal(404, 'not_found', 'No such client.');
    client.status = 'revoked';
    client.revoked_at = iso(Date.now());
    return HttpResponse.json<ClientJson>(client);
  }),

  accountRoute('GET', '/clients/:id/secrets', async ({ request, params }) => {
    await record(request);
    const refused = guard(request);
    if (refused) return refused;
    const client = db.clients.find((c) => c.id === params.id);
    return client
      ? HttpResponse.json<ClientSecretJson[]>(secretsOf(client))
      : refusal(404, 'not_found', 'No such client.');
  }),

  accountRoute('POST', '/clients/:id/secrets', async ({ request, params }) => {
    const body = ((await record(request)) ?? {}) as CreateClientSecretRequest;
    const refused = guard(request);
    if (refused) return refused;
    const secrets = managedSecrets(params.id);
    if (secrets instanceof Response) return secrets;
    const expiresIn = body.old_secret_expires_in;
    if (expiresIn !== undefined && !Object.hasOwn(SECRET_EXPIRIES, expiresIn)) {
      return validationFailed('old_secret_expires_in', 'old_secret_expires_in must be one of 1h, 1d, 7d.');
    }
    if (secrets.length >= MAX_CLIENT_SECRETS) {
      return refusal(
        400,
        'limit_reached',
        `This client already has ${MAX_CLIENT_SECRETS} secrets, the most it may have.`,
      );
    }
    const now = Date.now();
    if (expiresIn !== undefined) for (const old of secrets) old.expires_at = iso(now + SECRET_EXPIRIES[expiresIn]);
    const secret = makeSecret({ last4: NEW_CLIENT_SECRET.slice(-4), created_at: iso(now) });
    secrets.push(secret);
    return HttpResponse.json<CreatedClientSecretJson>(
      { secret, client_secret: NEW_CLIENT_SECRET, secrets },
      { status: 201 },
    );
  }),

  accountRoute('POST', '/clients/:id/secrets/:secretId/delete', async ({ request, params }) => {
    await record(request);
    const refused = guard(request);
    if (refused) return refused;
    const secrets = managedSecrets(params.id);
    if (secrets instanceof Response) return secrets;
    if (!secrets.some((s) => s.id === params.secretId)) return refusal(404, 'not_found', 'No such secret.');
    if (secrets.length === 1) {
      return refusal(
        409,
        'conflict',
        'This is the client’s only secret and cannot be deleted. Generate a new one first.',
      );
    }
    const left = secrets.filter((s) => s.id !== params.secretId);
    db.clientSecrets[String(params.id)] = left;
    return HttpResponse.json<ClientSecretJson[]>(left);
  }),

  accountRoute('GET', '/tokens', async ({ request }) => {
    await record(request);
    return guard(request) ?? HttpResponse.json<TokenJson[]>(db.tokens);
  }),

  accountRoute('POST', '/tokens', async ({ request }) => {
    const body = (await record(request)) as {
      name?: string;
      description?: string | null;
      expires_in_days?: number;
      expires_at?: string;
      scopes?: string[];
    };
    const refused = guard(request);
    if (refused) return refused;
    if (!body.name) return validationFailed('name', 'Enter a token name of 1 to 100 characters.');
    if ((body.description?.length ?? 0) > MAX_DESCRIPTION_LENGTH) {
      return validationFailed('description', `The description must be at most ${MAX_DESCRIPTION_LENGTH} characters.`);
    }
    // SC-07, as the account API answers: known third-party scopes, at least one; all when absent.
    const scopes = body.scopes ?? [...THIRD_PARTY_SCOPES];
    if (scopes.length === 0) return validationFailed('scopes', 'Choose at least one scope.');
    if (!scopes.every((s) => isScope(s) && SCOPES[s].thirdParty)) {
      return validationFailed('scopes', `A personal access token cannot have the ${scopes.join(', ')} scope.`);
    }
    const expiresAt = body.expires_at ?? iso(Date.now() + (body.expires_in_days ?? 365) * 24 * 60 * 60 * 1000);
    const token = makeToken({
      name: body.name,
      description: body.description || null,
      last4: 'WxYz',
      created_at: iso(Date.now()),
      expires_at: expiresAt,
      scopes: THIRD_PARTY_SCOPES.filter((s) => scopes.includes(s)),
    });
    db.tokens.unshift(token);
    return HttpResponse.json<CreatedTokenJson>(
      { token, value: 'lkp_TOKENvalueTOKENvalueTOKENva12WxYz' },
      { status: 201 },
    );
  }),

  accountRoute('PATCH', '/tokens/:id', async ({ request, params }) => {
    const body = (await record(request)) as UpdateTokenRequest;
    const refused = guard(request);
    if (refused) return refused;
    const token = db.tokens.find((t) => t.id === params.id);
    if (!token) return refusal(404, 'not_found', 'No such token.');
    if (token.kind !== 'pat') return refusal(400, 'invalid_request', "An application's access token cannot be edited.");
    // TR-02, as the account API answers: a bad field changes nothing.
    if (body.name !== undefined && body.name.trim() === '') {
      return validationFailed('name', 'Enter a token name of 1 to 100 characters.');
    }
    if (body.description?.includes('example.invalid')) {
      return validationFailed('description', 'The description must not mention example.invalid.');
    }
    if (body.name !== undefined) token.name = body.name;
    if (body.description !== undefined) token.description = body.description || null;
    return HttpResponse.json<TokenJson>(token);
  }),

  accountRoute('POST', '/tokens/:id/roll', async ({ request, params }) => {
    const body = ((await record(request)) ?? {}) as RollTokenRequest;
    const refused = guard(request);
    if (refused) return refused;
    const old = db.tokens.find((t) => t.id === params.id);
    if (!old) return refusal(404, 'not_found', 'No such token.');
    const overlap = body.overlap ?? 'none';
    if (!isRollOverlap(overlap)) return validationFailed('overlap', 'overlap must be one of none, 1h, 24h, 7d.');
    // TR-04, as the account API answers: only an active token that was never rolled.
    if (old.status !== 'active' || old.replaced_by !== null) {
      return refusal(400, 'invalid_request', 'This token was already rolled: roll the token that replaced it.');
    }
    // TR-03: same name, description, scopes and lifetime; the old value works for the overlap, or stops now.
    const now = Date.now();
    const lifetime = Date.parse(old.expires_at) - Date.parse(old.created_at);
    const token = makeToken({
      name: old.name,
      description: old.description,
      last4: ROLLED_TOKEN_VALUE.slice(-4),
      created_at: iso(now),
      expires_at: iso(now + lifetime),
      scopes: old.scopes,
    });
    old.replaced_by = token.id;
    if (overlap === 'none') old.status = 'revoked';
    else old.expires_at = iso(Math.min(Date.parse(old.expires_at), now + ROLL_OVERLAPS[overlap]));
    db.tokens.unshift(token);
    return HttpResponse.json<CreatedTokenJson>({ token, value: ROLLED_TOKEN_VALUE }, { status: 201 });
  }),

  accountRoute('POST', '/tokens/:id/revoke', async ({ request, params }) => {
    await record(request);
    const refused = guard(request);
    if (refused) return refused;
    const token = db.tokens.find((t) => t.id === params.id);
    if (!token) return refusal(404, 'not_found', 'No such token.');
    token.status = 'revoked';
    return HttpResponse.json<TokenJson>(token);
  }),

  accountRoute('GET', '/applications', async ({ request }) => {
    await record(request);
    return guard(request) ?? HttpResponse.json<ApplicationJson[]>(db.applications);
  }),

  accountRoute('POST', '/applications/:id/revoke', async ({ request, params }) => {
    await record(request);
    const refused = guard(request);
    if (refused) return refused;
    const app = db.applications.find((a) => a.client_id === params.id);
    if (!app) return refusal(404, 'not_found', 'No such authorized application.');
    db.applications = db.applications.filter((a) => a !== app);
    return HttpResponse.json<ApplicationJson>({ ...app, active_grants: 0, scopes: [] });
  }),

  // AU-05, as the account API answers: newest first, `type` one event type, `before` the last
  // page's `next`, `limit` 1 to 100 (50 by default); a bad parameter is 400 naming it.
  accountRoute('GET', '/security-log', async ({ request }) => {
    await record(request);
    const refused = guard(request);
    if (refused) return refused;
    const query = new URL(request.url).searchParams;
    const type = query.get('type');
    if (type !== null && !isSecurityEventType(type)) return validationFailed('type', 'Unknown event type.');
    const before = query.get('before');
    const limit = Number(query.get('limit') ?? SECURITY_LOG_PAGE_SIZE);
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= 100)) {
      return validationFailed('limit', 'limit must be a whole number from 1 to 100.');
    }
    const matching = [...db.securityEvents]
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .filter((event) => (type === null || event.type === type) && (before === null || event.id < before));
    const events = matching.slice(0, limit);
    return HttpResponse.json<SecurityLogJson>({
      events,
      next: matching.length > limit ? events[events.length - 1]!.id : null,
    });
  }),

  http.post('/bff/graphql', async ({ request }) => {
    await record(request);
    const refused = guard(request);
    if (refused) return refused;
    return HttpResponse.json({ data: { profile: { name: db.user.name } } });
  }),
];
