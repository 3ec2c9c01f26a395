// A third-party web application signing its users in with Latchkey: the authorization code
// grant with state and PKCE through openid-client 6, then the API with the access token.
// Tokens stay on this server, keyed by an opaque session cookie; the browser never sees one.
import { randomBytes } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import * as oidc from 'openid-client';

const { ISSUER, CLIENT_ID, CLIENT_SECRET, API_URL, PORT = '5173' } = process.env;
if (!ISSUER || !CLIENT_ID || !CLIENT_SECRET || !API_URL) {
  console.error('Set ISSUER, CLIENT_ID, CLIENT_SECRET and API_URL (and PORT, default 5173).');
  process.exit(1);
}
// Must equal the redirect URL registered for the client on the portal's API clients page.
const redirectUri = `http://localhost:${PORT}/callback`;

// RFC 8414 metadata at ISSUER/.well-known/oauth-authorization-server. A local issuer is plain
// http; a production one is https and needs no allowInsecureRequests.
const config = await oidc.discovery(new URL(ISSUER), CLIENT_ID, CLIENT_SECRET, undefined, {
  algorithm: 'oauth2',
  ...(ISSUER.startsWith('http://') ? { execute: [oidc.allowInsecureRequests] } : {}),
});

interface Session {
  state?: string;
  verifier?: string;
  accessToken?: string;
  refreshToken?: string;
}
const sessions = new Map<string, Session>();

function session(req: Request, res: Response): Session {
  const id = /(?:^|;\s*)example_sid=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1];
  if (id && sessions.has(id)) return sessions.get(id)!;
  const fresh = randomBytes(24).toString('base64url');
  sessions.set(fresh, {});
  res.cookie('example_sid', fresh, { httpOnly: true, sameSite: 'lax', path: '/' });
  return sessions.get(fresh)!;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (res: Response, body: string, status = 200) =>
  res
    .status(status)
    .type('html')
    .set('Cache-Control', 'no-store')
    .send(`<!doctype html><title>Example app</title><main>${body}</main>`);

/** `{ profile { name } }` with the session's access token: the name, or why the API refused. */
async function profileName(accessToken: string): Promise<{ name?: string; status: number }> {
  const response = await fetch(`${API_URL}/graphql`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: '{ profile { name } }' }),
  });
  const json = (await response.json().catch(() => ({}))) as { data?: { profile?: { name?: string } } };
  return { name: json.data?.profile?.name, status: response.status };
}

async function showProfile(res: Response, s: Session): Promise<void> {
  const { name, status } = await profileName(s.accessToken!);
  page(
    res,
    name === undefined
      ? `<p>The API refused the token (HTTP ${status}).</p><a href="/login">Sign in again</a>`
      : `<p>Signed in as <strong>${escape(name)}</strong></p><a href="/refresh">Refresh the token</a>`,
  );
}

const app = express();

app.get('/', async (req, res) => {
  const s = session(req, res);
  if (!s.accessToken) return void page(res, '<a href="/login">Sign in with Latchkey</a>');
  await showProfile(res, s);
});

app.get('/login', async (req, res) => {
  const s = session(req, res);
  s.state = oidc.randomState();
  s.verifier = oidc.randomPKCECodeVerifier();
  const parameters: Record<string, string> = {
    redirect_uri: redirectUri,
    state: s.state,
    code_challenge: await oidc.calculatePKCECodeChallenge(s.verifier),
    code_challenge_method: 'S256',
  };
  // prompt=consent asks for approval again; prompt=login asks for the password again.
  if (req.query.prompt === 'consent' || req.query.prompt === 'login') parameters.prompt = req.query.prompt;
  res.redirect(oidc.buildAuthorizationUrl(config, parameters).href);
});

app.get('/callback', async (req, res) => {
  const s = session(req, res);
  const { state, verifier } = s;
  delete s.state;
  delete s.verifier;
  if (!state || !verifier) return void page(res, '<p>No sign-in in progress.</p><a href="/login">Sign in</a>', 400);
  try {
    // Checks state and the RFC 9207 `iss`, turns `error=access_denied` into an error, redeems the code.
    const currentUrl = new URL(req.originalUrl, `http://localhost:${PORT}`);
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    s.accessToken = tokens.access_token;
    s.refreshToken = tokens.refresh_token;
  } catch (err) {
    const code = (err as { error?: string }).error ?? 'sign_in_failed';
    return void page(res, `<p>Sign-in failed: <code>${escape(code)}</code></p><a href="/login">Try again</a>`, 400);
  }
  await showProfile(res, s);
});

app.get('/refresh', async (req, res) => {
  const s = session(req, res);
  if (!s.refreshToken) return void page(res, '<p>Not signed in.</p><a href="/login">Sign in</a>', 400);
  try {
    const tokens = await oidc.refreshTokenGrant(config, s.refreshToken);
    s.accessToken = tokens.access_token;
    s.refreshToken = tokens.refresh_token ?? s.refreshToken;
  } catch (err) {
    const code = (err as { error?: string }).error ?? 'refresh_failed';
    return void page(res, `<p>Refresh failed: <code>${escape(code)}</code></p>`, 400);
  }
  page(res, '<p>Token refreshed.</p><a href="/">Continue</a>');
});

app.listen(Number(PORT), '127.0.0.1', () => console.error(`Example app on http://localhost:${PORT}`));
