// Fixtures for the runs, made through the domain core on the same database the target
// processes open (the SQLite file under DATA_DIR, or DATABASE_URL's in `extraEnv`): a user with
// a personal access token, and a client with a stock of single-use authorization codes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@latchkey/config';
import {
  createClient,
  createPersonalAccessToken,
  createUser,
  issueAuthorizationCode,
  systemClock,
} from '@latchkey/core';
import { openDatabase } from '@latchkey/process';
import { benchEnvironment } from './bench-config.ts';

export interface BenchData {
  dataDir: string;
  env: Record<string, string>;
  pat: string;
  client: { id: string; secret: string; redirectUri: string };
  codes: string[];
}

export async function createBenchData(codeCount: number, extraEnv: Record<string, string> = {}): Promise<BenchData> {
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-bench-'));
  const env = { ...benchEnvironment(dataDir), ...extraEnv };
  const config = loadConfig(env);
  const db = await openDatabase(config, systemClock);
  try {
    const user = await createUser(db, systemClock, {
      email: 'bench@example.test',
      password: 'bench quiet lantern',
      name: 'Ada Lovelace',
    });
    const { token: pat } = await createPersonalAccessToken(db, systemClock, config.tokenTtlSeconds, {
      userId: user.id,
      name: 'bench',
    });
    const redirectUri = 'https://client.example/cb';
    const { client, clientSecret } = await createClient(db, systemClock, {
      ownerId: user.id,
      name: 'Bench client',
      redirectUris: [redirectUri],
      requirePkce: false,
    });
    const codes: string[] = [];
    for (let i = 0; i < codeCount; i++) {
      codes.push(
        await issueAuthorizationCode(db, systemClock, { client, userId: user.id, redirectUri, codeChallenge: null }),
      );
    }
    return { dataDir, env, pat, client: { id: client.id, secret: clientSecret, redirectUri }, codes };
  } finally {
    await db.destroy();
  }
}
