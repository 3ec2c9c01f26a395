// `npm run dev`: the authorization server, the API and the portal's BFF as `npm start` runs
// them, with the portal's Vite dev server (hot reload) in front. Vite listens on the portal's
// public address (PORTAL_URL, http://localhost:3000 by default) and proxies /bff to the BFF,
// which listens on a free loopback port but keeps PORTAL_URL for its redirect URI and Origin
// checks. Edit apps/portal/src and the browser updates in place.
import type { Config } from '@latchkey/config';
import { systemClock } from '@latchkey/core';
import { createLogger } from '@latchkey/logging';
import { openDatabase, type RunningServer } from '@latchkey/process';
import { ensureDemoAccount, loadConfigOrExit } from './local-setup.ts';
import { startApiServer } from '../apps/api/src/main.ts';
import { startAuthServer } from '../apps/auth/src/main.ts';
import { startBffServer } from '../apps/bff/src/main.ts';
import { startPortalDevServer } from '../apps/portal/dev-server.ts';

/** A URL for reaching a server bound to `host` from this machine. */
function loopbackUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

const config = loadConfigOrExit();

const logger = createLogger({ level: config.logLevel });
const db = await openDatabase(config, systemClock);
const demo = config.demoAccount ? await ensureDemoAccount(db, config) : undefined;
const deps = { config, db, clock: systemClock, logger };
const servers: RunningServer[] = [await startAuthServer(deps), await startApiServer(deps)];
const bffConfig: Config = { ...config, portal: { ...config.portal, port: 0 } };
const bff = await startBffServer({ ...deps, config: bffConfig });
servers.push(bff);
const vite = await startPortalDevServer({
  publicUrl: config.portal.url,
  host: config.host,
  port: config.portal.port,
  bffUrl: loopbackUrl(config.host, bff.port),
});

const lines = [
  '',
  'Latchkey is running in development mode',
  `  Developer portal      ${config.portal.url}   (Vite, hot reload; /bff → ${loopbackUrl(config.host, bff.port)})`,
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
  await vite.close();
  await Promise.all(servers.map((s) => s.close()));
  await db.destroy();
  logger.flush();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
