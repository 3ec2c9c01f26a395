// A command-line tool signing its user in with Latchkey through the device authorization grant
// (RFC 8628) with openid-client 6, as a public client (DV-27): `login` shows a code to enter on
// /device and polls until the user approves, `whoami` refreshes and calls the API, `logout`
// revokes. Only the refresh token is kept, in a file only its user can read; access tokens live
// in memory for one command.
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as oidc from 'openid-client';

const usage = `Usage: node examples/cli-login/cli.ts <login|whoami|logout> [options]
  --issuer <url>      the authorization server (ISSUER)
  --api-url <url>     the GraphQL API (API_URL)
  --client-id <id>    a public client registered with --device (CLIENT_ID)
  --config-dir <dir>  where the refresh token is kept (CLI_LOGIN_DIR;
                      default $XDG_CONFIG_HOME/latchkey-cli-login or ~/.config/latchkey-cli-login)`;

/** A failure the user can act on: printed as one line on stderr, exit status 1. */
class CliError extends Error {}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    issuer: { type: 'string', default: process.env.ISSUER },
    'api-url': { type: 'string', default: process.env.API_URL },
    'client-id': { type: 'string', default: process.env.CLIENT_ID },
    'config-dir': { type: 'string', default: process.env.CLI_LOGIN_DIR },
    help: { type: 'boolean', short: 'h' },
  },
});

const configDir =
  values['config-dir'] ?? join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'latchkey-cli-login');
const tokenFile = join(configDir, 'refresh-token');

/** Discovery from RFC 8414 metadata (ISSUER/.well-known/oauth-authorization-server); no secret. */
async function discover(): Promise<oidc.Configuration> {
  const issuer = values.issuer;
  const clientId = values['client-id'];
  if (!issuer || !clientId) throw new CliError('Set ISSUER and CLIENT_ID (or --issuer and --client-id).');
  // A local issuer is plain http; a production one is https and needs no allowInsecureRequests.
  return oidc.discovery(new URL(issuer), clientId, undefined, oidc.None(), {
    algorithm: 'oauth2',
    ...(issuer.startsWith('http://') ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
}

/** `{ profile { name } }` with an access token; `profile` is the one scope it needs (docs/scopes.md). */
async function profileName(accessToken: string): Promise<string> {
  if (!values['api-url']) throw new CliError('Set API_URL (or --api-url).');
  const response = await fetch(`${values['api-url']}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: '{ profile { name } }' }),
  });
  const json = (await response.json().catch(() => ({}))) as { data?: { profile?: { name?: string } } };
  const name = json.data?.profile?.name;
  if (name === undefined) throw new CliError(`The API refused the token (HTTP ${response.status}).`);
  return name;
}

/**
 * Keeps nothing but the refresh token, in a file created with mode 0600 in a 0700 folder, and
 * replaced by a rename so that a crash never leaves half a token, nor a file of another mode.
 */
async function storeRefreshToken(refreshToken: string | undefined): Promise<void> {
  if (!refreshToken) throw new CliError('The server issued no refresh token: nothing to keep.');
  await mkdir(configDir, { recursive: true, mode: 0o700 });
  const temporary = `${tokenFile}.${process.pid}.tmp`;
  const file = await open(temporary, 'wx', 0o600);
  try {
    await file.writeFile(refreshToken);
  } finally {
    await file.close();
  }
  await rename(temporary, tokenFile);
}

async function storedRefreshToken(): Promise<string> {
  const token = await readFile(tokenFile, 'utf8').catch(() => '');
  if (!token) throw new CliError('Not signed in: run login first.');
  return token.trim();
}

async function login(): Promise<void> {
  const config = await discover();
  const device = await oidc.initiateDeviceAuthorization(config, { scope: 'profile' });
  console.log(`Open ${device.verification_uri} and enter the code ${device.user_code}`);
  if (device.verification_uri_complete) console.log(`or open ${device.verification_uri_complete}`);
  console.log(`Waiting for approval (the code expires in ${Math.round(device.expires_in / 60)} minutes)...`);
  // Polls every `interval` seconds, and 5 s slower after each slow_down (RFC 8628 §3.5).
  const tokens = await oidc.pollDeviceAuthorizationGrant(config, device);
  await storeRefreshToken(tokens.refresh_token);
  console.log(`Signed in as ${await profileName(tokens.access_token)}`);
}

async function whoami(): Promise<void> {
  const refreshToken = await storedRefreshToken();
  const config = await discover();
  const tokens = await oidc.refreshTokenGrant(config, refreshToken);
  // The refresh token rotates on every use: the old one is spent, keep the new one.
  await storeRefreshToken(tokens.refresh_token);
  console.log(await profileName(tokens.access_token));
}

async function logout(): Promise<void> {
  const refreshToken = await storedRefreshToken();
  const config = await discover();
  // RFC 7009: revoking the refresh token ends the whole grant, access tokens included.
  if (config.serverMetadata().revocation_endpoint) {
    await oidc.tokenRevocation(config, refreshToken, { token_type_hint: 'refresh_token' });
  }
  await rm(tokenFile, { force: true });
  console.log('Signed out.');
}

/** One line for what the server or the wait said (RFC 8628 §3.5 errors first). */
function describe(err: unknown): string {
  if (err instanceof CliError) return err.message;
  const { error, code, message, cause } = err as { error?: unknown; code?: unknown; message?: string; cause?: Error };
  if (error === 'access_denied') return 'Sign-in failed: access was denied on the device page.';
  // The server says expired_token once the code is 10 minutes old; openid-client stops polling then too.
  if (error === 'expired_token' || code === 'OAUTH_TIMEOUT') {
    return 'Sign-in failed: the code expired before it was approved; run login again.';
  }
  if (error === 'invalid_grant') return 'The stored sign-in is no longer valid (invalid_grant): run login again.';
  if (typeof error === 'string') return `Failed: ${error}.`;
  return `Failed: ${message ?? String(err)}${cause?.message ? ` (${cause.message})` : ''}`;
}

const commands: Record<string, () => Promise<void>> = { login, whoami, logout };
const command = commands[positionals[0] ?? ''];
if (values.help || !command || positionals.length !== 1) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}
try {
  await command();
} catch (err) {
  console.error(describe(err));
  process.exitCode = 1;
}
