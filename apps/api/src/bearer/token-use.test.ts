// What the API does with a token it accepted (token-use.ts), over real HTTP on SQLite and
// PostgreSQL: TR-08, when the token expires is on every answer after the token check; TR-06,
// where and by what it was last used (TRUST_PROXY respected), in the account API's token and
// application lists; TR-07, with no database write per request, only the recorder's flush.
import { describe, expect, it } from 'vitest';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { TOKEN_EXPIRES_AT_HEADER } from '@latchkey/contracts';
import {
  authenticateAccessToken,
  createPersonalAccessToken,
  MAX_USER_AGENT_LENGTH,
  rollPersonalAccessToken,
  type CreatedPersonalAccessToken,
  type User,
} from '@latchkey/core';
import { makeClient, makeUser } from '#test/support/fixtures.ts';
import { useSystem } from '#test/support/system.ts';
import { callAccount, issuePortalToken, issueThirdPartyTokens } from '../../../auth/src/account/account.fixture.ts';
import type { ApiDeps } from '../deps.ts';
import { capturingLogger, startStandaloneApi, type StandaloneApi } from '../testing/api-server.ts';
import { postGraphql, type GraphqlAnswer } from '../testing/post-graphql.ts';

const SPA = 'https://spa.example';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** No timed flush: only close() writes, however slow the machine (as last-used.test.ts). */
const NO_TIMED_FLUSH = 2 ** 31 - 1;
const RFC_3339_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const iso = (ms: number): string => new Date(ms).toISOString();

const system = useSystem();

async function newUser(name: string): Promise<{ user: User; portal: string }> {
  const user = await makeUser(system, name);
  return { user, portal: await issuePortalToken(system, user) };
}

function newPat(
  user: User,
  options: { scopes?: Array<'profile' | 'email'>; expiresAt?: number } = {},
): Promise<CreatedPersonalAccessToken> {
  return createPersonalAccessToken(system.db, system.clock, system.config.tokenTtlSeconds, {
    userId: user.id,
    name: 'token use',
    ...options,
  });
}

/** An API of its own on the system's database and clock, with no timed flush; `deps` overrides. */
function startApi(deps: Partial<ApiDeps> = {}): Promise<StandaloneApi> {
  return startStandaloneApi({
    config: system.config,
    db: system.db,
    clock: system.clock,
    logger: capturingLogger().logger,
    lastUsedFlushMs: NO_TIMED_FLUSH,
    ...deps,
  });
}

/** Stops the API and flushes what its recorder holds. */
async function flush(api: StandaloneApi): Promise<void> {
  await api.stop();
  await api.app.close();
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'token-use', version: '1' } },
});

/** One MCP initialize, as a hand-written client sends it. */
async function postMcp(apiUrl: string, token: string | undefined, headers: Record<string, string> = {}) {
  const response = await fetch(`${apiUrl}/mcp`, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: INITIALIZE,
  });
  await response.text();
  return response;
}

function expiresAtHeader(answer: { headers: Headers }): string | null {
  return answer.headers.get(TOKEN_EXPIRES_AT_HEADER);
}

function exposedHeaders(answer: { headers: Headers }): string[] {
  return (answer.headers.get('access-control-expose-headers') ?? '').split(',').map((name) => name.trim());
}

describe('TR-08 Latchkey-Token-Expires-At on the API’s answers', () => {
  it('TR-08 a 200 at /graphql carries the token’s expires_at, in RFC 3339 UTC', async () => {
    const { user } = await newUser('Expiry Reader');
    const expiresAt = system.clock.now() + 30 * DAY + 1234;
    const { token, summary } = await newPat(user, { expiresAt });
    const answer = await postGraphql(system.apiUrl, { token });
    expect(answer.status, answer.text).toBe(200);
    expect(expiresAtHeader(answer)).toBe(iso(expiresAt));
    expect(expiresAtHeader(answer)).toMatch(RFC_3339_UTC);
    expect(expiresAtHeader(answer)).toBe(iso(summary.expiresAt));
    // Twice: the second answer comes from the fast path (the document is cached).
    expect(expiresAtHeader(await postGraphql(system.apiUrl, { token }))).toBe(iso(expiresAt));
    const get = await postGraphql(system.apiUrl, {
      method: 'GET',
      path: `/graphql?query=${encodeURIComponent('{ profile { name } }')}`,
      token,
    });
    expect(get.status).toBe(200);
    expect(expiresAtHeader(get)).toBe(iso(expiresAt));
  });

  it('TR-08 errors answered after the token check carry it too: 403 insufficient_scope, 400 for a bad query or a body that is not JSON', async () => {
    const { user } = await newUser('Error Reader');
    const expiresAt = system.clock.now() + 10 * DAY;
    const { token } = await newPat(user, { scopes: ['email'], expiresAt });
    const answers: Array<[string, GraphqlAnswer, number]> = [
      ['missing scope', await postGraphql(system.apiUrl, { token, query: '{ profile { name } }' }), 403],
      [
        'unknown field',
        await postGraphql(system.apiUrl, {
          token,
          query: '{ profile { nope } }',
          headers: { accept: 'application/graphql-response+json' },
        }),
        400,
      ],
      ['not JSON', await postGraphql(system.apiUrl, { token, body: '{"query": ' }), 400],
    ];
    for (const [label, answer, status] of answers) {
      expect(answer.status, `${label}: ${answer.text}`).toBe(status);
      expect(expiresAtHeader(answer), label).toBe(iso(expiresAt));
    }
  });

  it('TR-08 at /mcp: on the 200 of an accepted token, not on a 401', async () => {
    const { user } = await newUser('Agent Owner');
    const expiresAt = system.clock.now() + 90 * DAY;
    const { token } = await newPat(user, { expiresAt });
    const accepted = await postMcp(system.apiUrl, token);
    expect(accepted.status).toBe(200);
    expect(expiresAtHeader(accepted)).toBe(iso(expiresAt));
    for (const refused of [
      await postMcp(system.apiUrl, undefined),
      await postMcp(system.apiUrl, 'lkp_notavalidtokenatall'),
    ]) {
      expect(refused.status).toBe(401);
      expect(expiresAtHeader(refused)).toBeNull();
    }
  });

  it('TR-08 absent on every 401 at /graphql: no token, an unknown, a revoked or an expired token', async () => {
    const { user } = await newUser('Refused Reader');
    const revoked = await newPat(user);
    await system.db
      .updateTable('access_tokens')
      .set({ revoked_at: system.clock.now() })
      .where('id', '=', revoked.summary.id)
      .execute();
    const expired = await newPat(user, { expiresAt: system.clock.now() + 1000 });
    system.clock.advance(1000);
    for (const [label, token] of [
      ['none', undefined],
      ['unknown', 'lkp_notavalidtokenatall'],
      ['revoked', revoked.token],
      ['expired', expired.token],
    ] as const) {
      const answer = await postGraphql(system.apiUrl, { token });
      expect(answer.status, label).toBe(401);
      expect(expiresAtHeader(answer), label).toBeNull();
    }
  });

  it('TR-08 a rolled token in its overlap answers the overlap’s end; its successor its own expiry', async () => {
    const { user } = await newUser('Overlap Reader');
    const old = await newPat(user);
    const rolledAt = system.clock.now();
    const rolled = await rollPersonalAccessToken(system.db, system.clock, old.summary.id, '1h', user.id);
    const during = await postGraphql(system.apiUrl, { token: old.token });
    expect(during.status).toBe(200);
    expect(expiresAtHeader(during)).toBe(iso(rolledAt + HOUR));
    const successor = await postGraphql(system.apiUrl, { token: rolled.token });
    expect(expiresAtHeader(successor)).toBe(iso(rolled.summary.expiresAt));
    expect(rolled.summary.expiresAt).toBe(rolledAt + system.config.tokenTtlSeconds * 1000);
  });

  it('TR-08 CORS: a browser app on an allowed origin may read it, at /graphql and /mcp (preflight and answer)', async () => {
    const { user } = await newUser('Browser App Owner');
    // Registers SPA as an allowed browser-app origin (PC-07).
    await makeClient(system, user, { redirectUris: [`${SPA}/callback`] });
    const expiresAt = system.clock.now() + 5 * DAY;
    const { token } = await newPat(user, { expiresAt });

    for (const path of ['/graphql', '/mcp']) {
      const preflight = await fetch(`${system.apiUrl}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin: SPA,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(preflight.status, path).toBe(204);
      expect(exposedHeaders(preflight), path).toContain(TOKEN_EXPIRES_AT_HEADER);
    }

    const graphql = await postGraphql(system.apiUrl, { token, headers: { origin: SPA } });
    expect(graphql.status).toBe(200);
    expect(graphql.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(exposedHeaders(graphql)).toContain(TOKEN_EXPIRES_AT_HEADER);
    expect(expiresAtHeader(graphql)).toBe(iso(expiresAt));

    const mcp = await postMcp(system.apiUrl, token, { origin: SPA });
    expect(mcp.status).toBe(200);
    expect(mcp.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(exposedHeaders(mcp)).toEqual(expect.arrayContaining(['Mcp-Session-Id', TOKEN_EXPIRES_AT_HEADER]));
    expect(expiresAtHeader(mcp)).toBe(iso(expiresAt));

    // Another origin is given no CORS header at all, so nothing is exposed to it.
    const other = await postGraphql(system.apiUrl, { token, headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('access-control-expose-headers')).toBeNull();
  });
});

describe('TR-06 where and by what a token was last used', () => {
  it('TR-06 without TRUST_PROXY, X-Forwarded-For is ignored: the token list shows the loopback address, the User-Agent and the time', async () => {
    const { user, portal } = await newUser('Direct Caller');
    const { summary, token } = await newPat(user);
    const never = await newPat(user);
    expect(system.config.trustProxy).toBeUndefined();
    const api = await startApi();
    try {
      const answer = await postGraphql(api.url, {
        token,
        headers: { 'x-forwarded-for': '203.0.113.7', 'user-agent': 'deploy-bot/1.2 (+https://ci.example)' },
      });
      expect(answer.status).toBe(200);
      expect(expiresAtHeader(answer)).toBe(iso(summary.expiresAt));
    } finally {
      await flush(api);
    }
    const usedAt = system.clock.now();
    const list = await callAccount(system, 'GET', '/account/tokens', { token: portal });
    expect(list.body.find((t: { id: string }) => t.id === summary.id)).toMatchObject({
      last_used_at: iso(usedAt),
      last_used_ip: '127.0.0.1',
      last_used_user_agent: 'deploy-bot/1.2 (+https://ci.example)',
    });
    // Never used: null, all three.
    expect(list.body.find((t: { id: string }) => t.id === never.summary.id)).toMatchObject({
      last_used_at: null,
      last_used_ip: null,
      last_used_user_agent: null,
    });
  });

  it('TR-06 with TRUST_PROXY=loopback the forwarded client address is kept (the nearest untrusted hop); a later use wins; a long User-Agent is cut', async () => {
    const { user, portal } = await newUser('Proxied Caller');
    const { summary, token } = await newPat(user);
    const api = await startApi({ config: { ...system.config, trustProxy: 'loopback' } });
    let lastUse: number;
    try {
      expect(
        (await postGraphql(api.url, { token, headers: { 'x-forwarded-for': '198.51.100.1', 'user-agent': 'first' } }))
          .status,
      ).toBe(200);
      system.clock.advance(60_000);
      lastUse = system.clock.now();
      const answer = await postMcp(api.url, token, {
        'x-forwarded-for': '198.51.100.1, 203.0.113.7, 127.0.0.1',
        'user-agent': 'u'.repeat(MAX_USER_AGENT_LENGTH + 100),
      });
      expect(answer.status).toBe(200);
    } finally {
      await flush(api);
    }
    const list = await callAccount(system, 'GET', '/account/tokens', { token: portal });
    expect(list.body.find((t: { id: string }) => t.id === summary.id)).toMatchObject({
      last_used_at: iso(lastUse),
      last_used_ip: '203.0.113.7',
      last_used_user_agent: 'u'.repeat(MAX_USER_AGENT_LENGTH),
    });
  });

  it('TR-06 an authorized application shows where its token was last used, null before', async () => {
    const { user, portal } = await newUser('App User');
    const { client } = await makeClient(system, user, { name: 'Traced App' });
    const pair = await issueThirdPartyTokens(system, client, user);
    const application = async () => {
      const res = await callAccount(system, 'GET', '/account/applications', { token: portal });
      expect(res.status).toBe(200);
      return res.body.find((app: { client_id: string }) => app.client_id === client.id);
    };
    expect(await application()).toMatchObject({ last_used_at: null, last_used_ip: null, last_used_user_agent: null });

    const api = await startApi({ config: { ...system.config, trustProxy: 'loopback' } });
    try {
      const answer = await postGraphql(api.url, {
        token: pair.accessToken,
        headers: { 'x-forwarded-for': '192.0.2.44', 'user-agent': 'TracedApp/2.0' },
      });
      expect(answer.status).toBe(200);
    } finally {
      await flush(api);
    }
    expect(await application()).toMatchObject({
      last_used_at: iso(system.clock.now()),
      last_used_ip: '192.0.2.44',
      last_used_user_agent: 'TracedApp/2.0',
    });
    const { tokenId } = await authenticateAccessToken(system.db, system.clock, pair.accessToken);
    const tokens = await callAccount(system, 'GET', '/account/tokens', { token: portal });
    expect(tokens.body.find((t: { id: string }) => t.id === tokenId)).toMatchObject({
      kind: 'oauth',
      last_used_ip: '192.0.2.44',
      last_used_user_agent: 'TracedApp/2.0',
    });
  });
});

/** Counts the statements that write, as Kysely builds them (the recorder's updates among them). */
class WriteCounter implements KyselyPlugin {
  readonly writes: string[] = [];

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (node.kind === 'UpdateQueryNode' || node.kind === 'InsertQueryNode' || node.kind === 'DeleteQueryNode') {
      this.writes.push(node.kind);
    } else if (node.kind === 'RawNode' && /^\s*(insert|update|delete|replace)\b/i.test(node.sqlFragments.join('?'))) {
      this.writes.push('RawNode');
    }
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

describe('TR-07 no database write per API request', () => {
  it('TR-07 100 requests with two tokens write nothing; the flush writes each token once, with its latest use', async () => {
    const { user } = await newUser('Busy Caller');
    const first = await newPat(user);
    const second = await newPat(user);
    const counter = new WriteCounter();
    const api = await startApi({ db: system.db.withPlugin(counter) });
    const start = system.clock.now();
    let firstUsedAt = 0;
    let secondUsedAt = 0;
    try {
      for (let i = 0; i < 100; i++) {
        system.clock.advance(1000);
        const token = i % 3 === 0 ? second.token : first.token;
        const status =
          i % 10 === 9 ? (await postMcp(api.url, token)).status : (await postGraphql(api.url, { token })).status;
        expect(status, `request ${i}`).toBe(200);
        if (token === first.token) firstUsedAt = system.clock.now();
        else secondUsedAt = system.clock.now();
      }
      expect(counter.writes).toEqual([]);
      const rows = await system.db
        .selectFrom('access_tokens')
        .select(['id', 'last_used_at'])
        .where('id', 'in', [first.summary.id, second.summary.id])
        .execute();
      expect(rows.map((row) => row.last_used_at)).toEqual([null, null]);
    } finally {
      await flush(api);
    }
    expect(counter.writes).toEqual(['UpdateQueryNode', 'UpdateQueryNode']);
    const rows = await system.db
      .selectFrom('access_tokens')
      .select(['id', 'last_used_at', 'last_used_ip'])
      .where('id', 'in', [first.summary.id, second.summary.id])
      .execute();
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(Number(byId[first.summary.id]!.last_used_at)).toBe(firstUsedAt);
    expect(Number(byId[second.summary.id]!.last_used_at)).toBe(secondUsedAt);
    expect(firstUsedAt).toBeGreaterThan(start);
    expect(byId[first.summary.id]!.last_used_ip).toBe('127.0.0.1');
    // Closing again has nothing left to write.
    await api.app.close();
    expect(counter.writes).toHaveLength(2);
  });
});
