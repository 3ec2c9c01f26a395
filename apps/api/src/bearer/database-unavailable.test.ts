import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@latchkey/config';
import { ManualClock } from '@latchkey/core';
import { generateToken, TokenPrefix } from '@latchkey/credentials';
import { createDatabase, sqlitePathFor, type Db } from '@latchkey/db';
import { capturingLogger, startStandaloneApi, type StandaloneApi } from '../testing/api-server.ts';
import { postGraphql } from '../testing/post-graphql.ts';

// A real SQLite file whose schema was never migrated: every token lookup fails inside the
// database driver, as it would with a corrupt or unreachable database.
let dataDir: string;
let db: Db;
let api: StandaloneApi;
let lines: string[];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'latchkey-api-dbdown-'));
  db = createDatabase({ sqlitePath: sqlitePathFor(dataDir) });
  const captured = capturingLogger();
  lines = captured.lines;
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  api = await startStandaloneApi({ config, db, clock: new ManualClock(), logger: captured.logger });
});
afterAll(async () => {
  await api?.stop();
  await db?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('D-10 the token cannot be checked', () => {
  it('answers 503 with Retry-After and a JSON error, never 401 invalid_token', async () => {
    const token = generateToken(TokenPrefix.personalAccessToken);
    const answer = await postGraphql(api.url, { token });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(answer.headers.get('www-authenticate')).toBeNull();
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.json.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect(answer.text).not.toMatch(/sqlite|no such table|at .*\.ts/i);
    // Logged for the operator, without the token.
    expect(lines.some((line) => line.includes('database unavailable'))).toBe(true);
    expect(lines.join('\n')).not.toContain(token);
  });

  it('a token that fails the format check is still refused as invalid_token without touching the database', async () => {
    const answer = await postGraphql(api.url, { token: 'lkp_notavalidtokenatall' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"');
  });
});
