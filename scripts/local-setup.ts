// Shared by `npm start` and `npm run dev`: configuration with a readable failure, and the
// local demo account.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, type Config } from '@latchkey/config';
import { createUser, findUserByEmail, systemClock } from '@latchkey/core';
import type { Db } from '@latchkey/db';

export interface DemoAccount {
  email: string;
  password: string;
  name: string;
}

/** Loads the configuration or exits with the list of problems (no stack trace). */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/** The demo account's password is generated once and kept in DATA_DIR (mode 0600). */
export async function ensureDemoAccount(db: Db, config: Config): Promise<DemoAccount> {
  const file = join(config.dataDir, 'demo-account.json');
  const account: DemoAccount = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as DemoAccount)
    : { email: 'demo@latchkey.local', password: randomBytes(12).toString('base64url'), name: 'Demo Developer' };
  if (!existsSync(file)) writeFileSync(file, JSON.stringify(account, null, 2), { mode: 0o600 });
  if (!(await findUserByEmail(db, account.email))) await createUser(db, systemClock, account);
  return account;
}
