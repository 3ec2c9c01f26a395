// Issue 38's full sign-in, as a browser does it but without one: a cookie jar, every redirect
// followed by hand, the forms' hidden fields read from the HTML (test/support/browserless-flow.ts's
// jar and form reader). One flow: GET authorize → the sign-in form → POST it → the consent page
// (prompt=consent, so every flow shows it, on both servers) → POST Allow → the redirect to the
// client with a code → POST the token endpoint (client_secret_basic). Each flow starts with an
// empty jar: a new person in a new browser.
import { CookieJar, findForm } from '../test/support/browserless-flow.ts';

export interface Hop {
  status: number;
  location: string | undefined;
  html: string;
}

/** A browser on one server: `publicUrl` is the origin the server names in its own redirects. */
class Browser {
  readonly jar = new CookieJar();
  readonly origin: string;
  readonly publicUrl: string;
  readonly #headers: Record<string, string>;

  constructor(origin: string, publicUrl: string, headers: Record<string, string> = {}) {
    this.origin = origin;
    this.publicUrl = publicUrl;
    this.#headers = headers;
  }

  /** The loopback URL of a URL the server named, or undefined when it points elsewhere (the client). */
  local(url: string): string | undefined {
    const absolute = new URL(url, this.origin);
    for (const base of [this.origin, this.publicUrl]) {
      if (absolute.origin === new URL(base).origin) return `${this.origin}${absolute.pathname}${absolute.search}`;
    }
    return undefined;
  }

  async go(url: string, form?: Record<string, string>): Promise<Hop> {
    const headers: Record<string, string> = { accept: 'text/html', ...this.#headers };
    const cookie = this.jar.header();
    if (cookie) headers.cookie = cookie;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'manual',
    });
    this.jar.store(response);
    const location = response.headers.get('location');
    return {
      status: response.status,
      location: location === null ? undefined : new URL(location, url).toString(),
      html: await response.text(),
    };
  }

  /** Follows the server's own redirects; stops at a page or at a redirect elsewhere (the client). */
  async follow(hop: Hop): Promise<Hop> {
    let current = hop;
    for (let i = 0; i < 8; i++) {
      if (current.status < 300 || current.status >= 400 || !current.location) return current;
      const next = this.local(current.location);
      if (next === undefined) return current;
      current = await this.go(next);
    }
    throw new Error('too many redirects');
  }

  /** Submits the form whose action is `action` on `page` with its hidden fields and `fields`. */
  async submit(page: Hop, action: string | RegExp, fields: Record<string, string>): Promise<Hop> {
    const form = findFormMatching(page.html, action);
    if (!form) throw new Error(`no form ${String(action)} on a ${page.status} page`);
    return this.follow(
      await this.go(this.local(new URL(form.action, this.origin).toString())!, { ...form.fields, ...fields }),
    );
  }
}

function findFormMatching(html: string, action: string | RegExp) {
  if (typeof action === 'string') return findForm(html, action);
  const match = html.match(new RegExp(`<form\\b[^>]*action="(${action.source})"`));
  return match ? findForm(html, match[1]) : undefined;
}

/** The code in the redirect to the client, or an error naming where the flow ended. */
function codeOf(hop: Hop, redirectUri: string): string {
  const code = hop.location?.startsWith(redirectUri) ? new URL(hop.location).searchParams.get('code') : null;
  if (!code) throw new Error(`sign-in ended at ${hop.status} ${hop.location ?? hop.html.slice(0, 60)}`);
  return code;
}

export interface FlowClient {
  id: string;
  secret: string;
  redirectUri: string;
}

/** The token request with client_secret_basic (RFC 6749 §2.3.1: id and secret form-encoded first). */
export function basicAuthorization(client: { id: string; secret: string }): string {
  const encode = (value: string) => encodeURIComponent(value).replaceAll('%20', '+');
  return `Basic ${Buffer.from(`${encode(client.id)}:${encode(client.secret)}`).toString('base64')}`;
}

async function exchange(tokenUrl: string, client: FlowClient, code: string): Promise<void> {
  const response = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuthorization(client) },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri }).toString(),
  });
  const body = await response.text();
  if (response.status !== 200 || !body.includes('access_token')) {
    throw new Error(`token ${response.status} ${body.slice(0, 60)}`);
  }
}

/**
 * Latchkey: /oauth/authorize → /signin (email, password) → consent (Allow) → /oauth/token. As
 * deployed behind a TLS-terminating proxy (TRUST_PROXY=loopback, X-Forwarded-Proto: https): its
 * session cookie is Secure, so over plain http it would never be set.
 */
export function latchkeySignIn(
  server: { origin: string; publicUrl: string },
  client: FlowClient,
  user: { email: string; password: string },
): () => Promise<void> {
  const query = new URLSearchParams({
    client_id: client.id,
    response_type: 'code',
    redirect_uri: client.redirectUri,
    scope: 'profile email',
    prompt: 'consent',
    state: 'bench',
  });
  return async () => {
    const browser = new Browser(server.origin, server.publicUrl, { 'x-forwarded-proto': 'https' });
    const signInPage = await browser.follow(await browser.go(`${server.origin}/oauth/authorize?${query}`));
    const consent = await browser.submit(signInPage, '/signin', user);
    const redirect = await browser.submit(consent, '/oauth/authorize/decision', { decision: 'allow' });
    await exchange(`${server.origin}/oauth/token`, client, codeOf(redirect, client.redirectUri));
  };
}

/** node-oidc-provider: /auth → its development sign-in form (any login) → its consent form → /token. */
export function peerSignIn(origin: string, client: FlowClient, scope: string): () => Promise<void> {
  const query = new URLSearchParams({
    client_id: client.id,
    response_type: 'code',
    redirect_uri: client.redirectUri,
    scope,
    prompt: 'consent',
    state: 'bench',
  });
  return async () => {
    const browser = new Browser(origin, origin);
    const signInPage = await browser.follow(await browser.go(`${origin}/auth?${query}`));
    const consent = await browser.submit(signInPage, /[^"]*\/interaction\/[^"]+/, {
      login: 'bench-user',
      password: 'bench quiet lantern',
    });
    const redirect = await browser.submit(consent, /[^"]*\/interaction\/[^"]+/, {});
    await exchange(`${origin}/token`, client, codeOf(redirect, client.redirectUri));
  };
}
