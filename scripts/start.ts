// `npm start`: builds the portal if its sources changed, migrates the embedded database,
// provisions the portal client and (outside production) a demo account, then runs the
// authorization server, the API and the portal (BFF + SPA) in this process. SIGTERM or
// Ctrl+C stops all three gracefully (in-flight requests finish), then the pools close.
import { runServerProcess } from '@latchkey/process';
import { ensureDemoAccount } from './local-setup.ts';
import { startApiServer } from '../apps/api/src/main.ts';
import { startAuthServer } from '../apps/auth/src/main.ts';
import { startBffServer } from '../apps/bff/src/main.ts';
import { ensurePortalBuilt } from './build-portal.ts';

await runServerProcess({
  async start({ config, logger, clock, observability, infrastructure: { db, redis } }) {
    ensurePortalBuilt();
    const demo = config.demoAccount ? await ensureDemoAccount(db, config) : undefined;
    const deps = { config, db, redis, clock, logger, observability };
    const servers = [await startAuthServer(deps), await startApiServer(deps), await startBffServer(deps)];

    const lines = [
      '',
      'Latchkey is running',
      `  Developer portal      ${config.portal.url}`,
      `  Authorization server  ${config.auth.url}`,
      `  GraphQL API           ${config.api.url}/graphql`,
      `  Data                  ${config.databaseUrl === undefined ? config.dataDir : 'PostgreSQL (DATABASE_URL)'}`,
    ];
    if (demo) lines.push('', 'Demo account', `  Email     ${demo.email}`, `  Password  ${demo.password}`);
    lines.push('', 'Press Ctrl+C to stop.', '');
    process.stderr.write(lines.join('\n'));
    return servers;
  },
});
