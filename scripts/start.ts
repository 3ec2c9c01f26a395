// `npm start`: migrates the embedded database, provisions the portal client and (outside
// production) a demo account, then runs the authorization server and the API in this process.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, type Config } from '@latchkey/config';
import { createUser, findUserByEmail, systemClock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import { createLogger } from '@latchkey/logging';
import { openDatabase } from '@latchkey/runtime';
import { startApiServer } from '../apps/api/src/main.ts';
import { startAuthServer } from '../apps/auth/src/main.ts';

interface DemoAccount {
  email: string;
  password: string;
  name: string;
}

/** The demo account's password is generated once and kept in DATA_DIR (mode 0600). */
async function ensureDemoAccount(db: Db, config: Config): Promise<DemoAccount> {
  const file = join(config.dataDir, 'demo-account.json');
  const account: DemoAccount = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as DemoAccount)
    : { email: 'demo@latchkey.local', password: randomBytes(9).toString('base64url'), name: 'Demo Developer' };
  if (!existsSync(file)) writeFileSync(file, JSON.stringify(account, null, 2), { mode: 0o600 });
  if (!(await findUserByEmail(db, account.email))) await createUser(db, systemClock, account);
  return account;
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

const logger = createLogger({ level: config.logLevel });
const db = await openDatabase(config, systemClock);
const demo = config.demoAccount ? await ensureDemoAccount(db, config) : undefined;
const deps = { config, db, clock: systemClock, logger };
const servers = [await startAuthServer(deps), await startApiServer(deps)];

const lines = [
  '',
  'Latchkey is running',
  `  Authorization server  ${config.auth.url}`,
  `  GraphQL API           ${config.api.url}/graphql`,
  `  Data                  ${config.dataDir}`,
];
if (demo) lines.push('', 'Demo account', `  Email     ${demo.email}`, `  Password  ${demo.password}`);
lines.push('', 'Press Ctrl+C to stop.', '');
process.stderr.write(lines.join('\n'));

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await Promise.all(servers.map((s) => s.close()));
  await db.destroy();
  logger.flush();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
