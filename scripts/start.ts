// `npm start`: builds the portal if its sources changed, migrates the embedded database,
// provisions the portal client and (outside production) a demo account, then runs the
// authorization server, the API and the portal (BFF + SPA) in this process.
import { systemClock } from '@latchkey/core';
import { createLogger } from '@latchkey/logging';
import { openDatabase } from '@latchkey/runtime';
import { ensureDemoAccount, loadConfigOrExit } from './local-setup.ts';
import { startApiServer } from '../apps/api/src/main.ts';
import { startAuthServer } from '../apps/auth/src/main.ts';
import { startBffServer } from '../apps/bff/src/main.ts';
import { ensurePortalBuilt } from './build-portal.ts';

const config = loadConfigOrExit();

ensurePortalBuilt();
const logger = createLogger({ level: config.logLevel });
const db = await openDatabase(config, systemClock);
const demo = config.demoAccount ? await ensureDemoAccount(db, config) : undefined;
const deps = { config, db, clock: systemClock, logger };
const servers = [await startAuthServer(deps), await startApiServer(deps), await startBffServer(deps)];

const lines = [
  '',
  'Latchkey is running',
  `  Developer portal      ${config.portal.url}`,
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
