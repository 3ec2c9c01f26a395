// Where the system under test runs. playwright.config.ts is evaluated by the runner and again
// by every worker: the first evaluation picks free loopback ports and records them in the
// environment, which the workers inherit, so all agree on one system.
// Setting E2E_PORTAL_URL, E2E_AUTH_URL and E2E_API_URL beforehand runs the suite against an
// already running system instead (nothing is started or stopped then).
import { reservedPorts } from '../../test/support/loopback.ts';

export { reservedPort, reservedPorts } from '../../test/support/loopback.ts';

export interface SystemUrls {
  portalUrl: string;
  authUrl: string;
  apiUrl: string;
}

/** Set (to "1") when this run starts the system itself; see global-setup.ts. */
export const START_FLAG = 'E2E_START_SYSTEM';

export async function prepareSystemEnv(): Promise<SystemUrls> {
  if (!process.env.E2E_PORTAL_URL) {
    // Below the ephemeral range: no port-0 listener takes one before the servers bind it.
    const [portal, auth, api] = await reservedPorts(3);
    process.env.E2E_PORTAL_URL = `http://localhost:${portal}`;
    process.env.E2E_AUTH_URL = `http://localhost:${auth}`;
    process.env.E2E_API_URL = `http://localhost:${api}`;
    process.env[START_FLAG] = '1';
  }
  return systemUrls();
}

export function systemUrls(): SystemUrls {
  const { E2E_PORTAL_URL: portalUrl, E2E_AUTH_URL: authUrl, E2E_API_URL: apiUrl } = process.env;
  if (!portalUrl || !authUrl || !apiUrl) {
    throw new Error(
      'E2E_PORTAL_URL, E2E_AUTH_URL and E2E_API_URL are unset: run the suite through playwright.config.ts',
    );
  }
  return { portalUrl, authUrl, apiUrl };
}
