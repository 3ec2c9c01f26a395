// `npm run serve -- <auth|api|portal>`: one server per process, for running several instances
// of each behind a load balancer (docs/operating.md, "Running at scale"). The portal is built first if its
// sources changed. Configuration comes from the environment, as for every server.
import { ensurePortalBuilt } from './build-portal.ts';

const servers = {
  auth: () => import('../apps/auth/src/main.ts'),
  api: () => import('../apps/api/src/main.ts'),
  portal: () => import('../apps/bff/src/main.ts'),
} as const;

const name = process.argv[2];
if (name === undefined || !Object.hasOwn(servers, name)) {
  process.stderr.write(`usage: npm run serve -- <${Object.keys(servers).join('|')}>\n`);
  process.exit(2);
}
if (name === 'portal') ensurePortalBuilt();
const { main } = await servers[name as keyof typeof servers]();
await main();
