// R-13 graceful shutdown under load, on real processes: the authorization server and the API
// started as production starts them (`node apps/<name>/src/main.ts`, configured by environment
// only), loaded with code exchanges and /graphql calls, then sent SIGTERM mid-load.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createClient,
  createPersonalAccessToken,
  createUser,
  issueAuthorizationCode,
  systemClock,
  type Client,
} from '@latchkey/core';
import { migrateToLatest, type Db } from '@latchkey/db';
import { partialGrants, rowsPerGrant } from '../support/grant-rows.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { refusesConnections, slowPost } from './support/in-flight.ts';
import { reservedPorts } from '../support/loopback.ts';
import { spawnServer, type ServerProcess } from './support/server-process.ts';

const SHUTDOWN_TIMEOUT_MS = 8_000;
/** Concurrent clients per kind of request, and the most requests each sends. */
const WORKERS = 6;
const PER_WORKER = 40;
/** SIGTERM is sent once this many requests have been answered. */
const SIGNAL_AFTER = 60;

interface Outcome {
  kind: 'token' | 'graphql';
  id: string;
  /** The HTTP status, or the network error's code when no answer came. */
  status?: number;
  error?: string;
  /** What the client sent before the signal (answers can still come after). */
  sentAfterSignal: boolean;
}

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A database the processes share, with a user, a client, PATs and unused codes. */
async function prepare(dataDir: string, codes: number) {
  const database: TestDatabase = await createTestDatabase(dataDir);
  cleanup.push(() => database.dispose());
  const db: Db = database.open();
  cleanup.push(() => db.destroy());
  // SQLite is created empty; PostgreSQL's copy is already migrated (a no-op then).
  await migrateToLatest(db);
  const user = await createUser(db, systemClock, {
    email: `r13-${randomBytes(4).toString('hex')}@example.test`,
    password: `pw-${randomBytes(8).toString('hex')}`,
    name: 'Shutdown Tester',
  });
  const { client, clientSecret } = await createClient(db, systemClock, {
    ownerId: user.id,
    name: 'R-13 app',
    redirectUris: ['https://client.example/cb'],
    requirePkce: false,
  });
  const issue = () =>
    issueAuthorizationCode(db, systemClock, {
      client,
      userId: user.id,
      redirectUri: client.redirectUris[0]!,
      codeChallenge: null,
    });
  const codeList: string[] = [];
  for (let i = 0; i < codes; i += 1) codeList.push(await issue());
  const pats: string[] = [];
  for (let i = 0; i < WORKERS; i += 1) {
    pats.push((await createPersonalAccessToken(db, systemClock, 3600, { userId: user.id, name: `r13-${i}` })).token);
  }
  return { database, db, client, clientSecret, codes: codeList, pats };
}

function exchangeBody(client: Client, clientSecret: string, code: string): string {
  return new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirectUris[0]!,
    client_id: client.id,
    client_secret: clientSecret,
  }).toString();
}

function networkError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; name?: string } }).cause;
  return cause?.code ?? cause?.name ?? (err instanceof Error ? err.name : String(err));
}

describe('R-13 graceful shutdown of real server processes', () => {
  it('R-13 OB-20 SIGTERM under load: in-flight requests complete, new connections are refused, exit 0, no half-written grant, and every answered request is in the log after exit', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-r13-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const fixtures = await prepare(dataDir, WORKERS * PER_WORKER + 1);
    const [authPort, apiPort] = await reservedPorts(2);
    const authUrl = `http://127.0.0.1:${authPort}`;
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const env = {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      AUTH_PORT: String(authPort),
      AUTH_URL: authUrl,
      API_PORT: String(apiPort),
      API_URL: apiUrl,
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      RATE_LIMIT_TOKEN_PER_MINUTE: '100000',
      // Both processes must agree on these; otherwise each would generate its own at once.
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      PORTAL_CLIENT_ID: 'lkc_r13portal',
      PORTAL_CLIENT_SECRET: `lks_${randomBytes(24).toString('base64url')}`,
      ...fixtures.database.env,
    };
    const servers: Record<'auth' | 'api', ServerProcess> = {
      auth: spawnServer('auth', env),
      api: spawnServer('api', env),
    };
    cleanup.push(() => {
      servers.auth.kill();
      servers.api.kill();
    });
    await Promise.all([servers.auth.waitHealthy(authUrl), servers.api.waitHealthy(apiUrl)]);

    // Two requests held in flight across the signal: their bodies are half sent.
    const heldToken = slowPost(
      `${authUrl}/oauth/token`,
      { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'held-token' },
      exchangeBody(fixtures.client, fixtures.clientSecret, fixtures.codes.pop()!),
    );
    const heldGraphql = slowPost(
      `${apiUrl}/graphql`,
      {
        'content-type': 'application/json',
        authorization: `Bearer ${fixtures.pats[0]}`,
        'x-request-id': 'held-graphql',
      },
      JSON.stringify({ query: '{ profile { name } }' }),
    );

    const outcomes: Outcome[] = [];
    let signalled = false;
    let answered = 0;
    let signalSent!: () => void;
    const signalGiven = new Promise<void>((resolve) => (signalSent = resolve));
    const codes = [...fixtures.codes];

    async function worker(kind: 'token' | 'graphql', index: number): Promise<void> {
      for (let i = 0; i < PER_WORKER; i += 1) {
        const id = `${kind}-${index}-${i}`;
        const sentAfterSignal = signalled;
        const init: RequestInit =
          kind === 'token'
            ? {
                method: 'POST',
                headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': id },
                body: exchangeBody(fixtures.client, fixtures.clientSecret, codes.pop()!),
              }
            : {
                method: 'POST',
                headers: {
                  'content-type': 'application/json',
                  authorization: `Bearer ${fixtures.pats[index]}`,
                  'x-request-id': id,
                },
                body: '{"query":"{ profile { name } }"}',
              };
        try {
          const response = await fetch(
            `${kind === 'token' ? authUrl : apiUrl}/${kind === 'token' ? 'oauth/token' : 'graphql'}`,
            init,
          );
          await response.arrayBuffer();
          outcomes.push({ kind, id, status: response.status, sentAfterSignal });
          answered += 1;
          if (answered === SIGNAL_AFTER) {
            signalled = true;
            servers.auth.signal('SIGTERM');
            servers.api.signal('SIGTERM');
            signalSent();
          }
        } catch (err) {
          outcomes.push({ kind, id, error: networkError(err), sentAfterSignal });
          // Refused: the server is gone for this client; stop sending.
          if (signalled) return;
        }
      }
    }
    const load = Promise.all([
      ...Array.from({ length: WORKERS }, (_, i) => worker('token', i)),
      ...Array.from({ length: WORKERS }, (_, i) => worker('graphql', i)),
    ]);

    await signalGiven;
    const [authDraining, apiDraining] = await Promise.all([
      servers.auth.waitForLog('shutting down: finishing in-flight requests'),
      servers.api.waitForLog('shutting down: finishing in-flight requests'),
    ]);
    expect(authDraining).toMatchObject({ signal: 'SIGTERM', timeoutMs: SHUTDOWN_TIMEOUT_MS });
    expect(apiDraining).toMatchObject({ signal: 'SIGTERM' });
    // The held requests keep both processes draining: the ports are already closed.
    expect(await refusesConnections(authPort!)).toBe(true);
    expect(await refusesConnections(apiPort!)).toBe(true);

    heldToken.finish();
    heldGraphql.finish();
    const [token, graphql] = await Promise.all([heldToken.answer, heldGraphql.answer]);
    expect(token.status).toBe(200);
    expect(token.connection).toBe('close');
    expect(JSON.parse(token.body)).toMatchObject({
      token_type: 'Bearer',
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
    expect(graphql.status).toBe(200);
    expect(graphql.connection).toBe('close');
    expect(JSON.parse(graphql.body)).toEqual({ data: { profile: { name: 'Shutdown Tester' } } });

    await load;
    const started = Date.now();
    const [authExit, apiExit] = await Promise.all([servers.auth.exited, servers.api.exited]);
    expect(Date.now() - started).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(authExit).toEqual({ code: 0, signal: null });
    expect(apiExit).toEqual({ code: 0, signal: null });
    for (const server of [servers.auth, servers.api]) {
      const records = server.records();
      expect(records.some((r) => r.msg === 'shut down cleanly')).toBe(true);
      const stopped = records.find((r) => String(r.msg).startsWith('server stopped'));
      // Nothing was cut at the timeout; the held request at least was pending at the signal.
      expect(stopped).toMatchObject({ cut: 0 });
      expect(stopped!.pending).toBeGreaterThanOrEqual(1);
      expect(records.filter((r) => r.aborted === true)).toEqual([]);
    }

    // Every request either got a proper answer or was never accepted: a request a server
    // logged (it read it and answered) reached its client with that status.
    const logged = new Map<string, number>();
    for (const r of [...servers.auth.records(), ...servers.api.records()]) {
      if (r.msg === 'request' && typeof r.requestId === 'string') logged.set(r.requestId, r.status as number);
    }
    const answeredOutcomes = outcomes.filter((o) => o.status !== undefined);
    const failed = outcomes.filter((o) => o.status === undefined);
    expect(answeredOutcomes.length).toBeGreaterThanOrEqual(SIGNAL_AFTER);
    expect(answeredOutcomes.filter((o) => o.status !== 200)).toEqual([]);
    for (const o of answeredOutcomes) expect(logged.get(o.id), o.id).toBe(o.status);
    for (const o of failed) {
      expect(logged.has(o.id), `${o.id} was accepted but its client saw ${o.error}`).toBe(false);
      expect(o.error).toMatch(/^(ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET|EPIPE)$/);
    }
    expect(logged.get('held-token')).toBe(200);
    expect(logged.get('held-graphql')).toBe(200);

    // No half-written grant: every code consumed has one access and one refresh token, every
    // other none; and exactly the exchanges a client received were consumed.
    // Each code is issued with its grant, one to one.
    const grants = await rowsPerGrant(fixtures.db, fixtures.client.id);
    expect(partialGrants(grants)).toEqual([]);
    const exchanged = answeredOutcomes.filter((o) => o.kind === 'token').length + 1; // + the held one
    expect(grants.filter((g) => g.consumed)).toHaveLength(exchanged);
  });
});
