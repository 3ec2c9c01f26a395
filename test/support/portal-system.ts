// The whole system on loopback: the authorization server and the API (startSystem) plus the
// portal's backend-for-frontend, configured with PORTAL_URL set to its real address so the
// portal client's redirect URI points at it. PortalBrowser drives it the way the SPA and a
// browser would, without a browser: a cookie jar per origin, `redirect: 'manual'`, the
// authorization server's real sign-in pages, and a transcript of every response received.
import { createServer } from 'node:http';
import type { Config } from '@latchkey/config';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';
import { createObservability } from '@latchkey/observability';
import { createBffApp } from '../../apps/bff/src/app.ts';
import { createTokenSealer } from '../../apps/bff/src/session/token-sealing.ts';
import {
  CookieJar,
  fetchPage,
  submitDecision,
  submitSignIn,
  type Credentials,
  type PageResult,
} from './browserless-flow.ts';
import { captureLogger, closeServer, listenOnLoopback } from './loopback.ts';
import { makeUser, type TestUser } from './fixtures.ts';
import { perFile } from './per-file.ts';
import { startSystem, type TestSystem } from './system.ts';

/** One request the BFF made to the authorization server or the API. */
export interface UpstreamCall {
  method: string;
  /** Origin and path, no query. */
  url: string;
  /** `grant_type` of a token request, if it is one. */
  grantType: string | undefined;
}

export interface PortalSystem extends TestSystem {
  /** The BFF's logger (its lines land in `logs`). */
  bffLogger: Logger;
  /** Where the BFF listens; also PORTAL_URL unless `env` sets another public URL. */
  portalUrl: string;
  /** Every call the BFF made upstream, in order: its OAuth calls (a counting wrapper around the real fetch) and its proxied calls. */
  upstreamCalls: UpstreamCall[];
  /** How many upstream calls matched: a path suffix (`/graphql`, `/oauth/token`) and optionally a grant type. */
  countUpstream(pathSuffix: string, grantType?: string): number;
}

export interface PortalSystemOptions {
  /** The SPA build the BFF serves; apps/portal/dist by default. */
  portalDist?: string;
  upstreamTimeoutMs?: number;
  /** OB-*: all three servers export their spans to this OTLP/HTTP endpoint (a test receiver); off without it. */
  otlpEndpoint?: string;
}

/**
 * A fetch that records each call in `calls` (method, origin and path, and a token request's
 * `grant_type`) before making it with the real fetch.
 */
export function countingFetch(calls: UpstreamCall[]): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body = init?.body;
    calls.push({
      method: init?.method ?? 'GET',
      url: `${url.origin}${url.pathname}`,
      grantType: body instanceof URLSearchParams ? (body.get('grant_type') ?? undefined) : undefined,
    });
    return fetch(input, init);
  };
}

/**
 * Starts the authorization server, the API and the BFF on 127.0.0.1 with one database
 * (SQLite, or PostgreSQL in the node-pg project), one ManualClock and one log capture. `env` overrides configuration (the sign-in rate
 * limits are raised by default so suites can sign in many times).
 */
export async function startPortalSystem(
  env: Record<string, string> = {},
  options: PortalSystemOptions = {},
): Promise<PortalSystem> {
  const bffServer = createServer();
  const port = await listenOnLoopback(bffServer);
  const portalUrl = `http://127.0.0.1:${port}`;
  const system = await startSystem(
    {
      PORTAL_URL: portalUrl,
      PORTAL_PORT: String(port),
      RATE_LIMIT_LOGIN_PER_MINUTE: '10000',
      ...env,
    },
    options.otlpEndpoint === undefined ? {} : { otlpEndpoint: options.otlpEndpoint },
  );
  const logger = captureLogger(system.logs, { name: 'bff' });
  // The BFF's own, as in its own process; closing the system flushes its spans.
  const observability = createObservability({ otlpEndpoint: options.otlpEndpoint, serviceName: 'latchkey-bff' });
  const upstreamCalls: UpstreamCall[] = [];
  bffServer.on(
    'request',
    createBffApp({
      config: system.config,
      db: system.db,
      clock: system.clock,
      logger,
      observability,
      fetch: countingFetch(upstreamCalls),
      observeUpstream: ({ method, url }) => upstreamCalls.push({ method, url, grantType: undefined }),
      ...(options.portalDist === undefined ? {} : { portalDist: options.portalDist }),
      ...(options.upstreamTimeoutMs === undefined ? {} : { upstreamTimeoutMs: options.upstreamTimeoutMs }),
    }),
  );
  return {
    ...system,
    bffLogger: logger,
    portalUrl,
    upstreamCalls,
    countUpstream: (pathSuffix, grantType) =>
      upstreamCalls.filter((c) => c.url.endsWith(pathSuffix) && (grantType === undefined || c.grantType === grantType))
        .length,
    async close() {
      await closeServer(bffServer);
      await system.close();
      await observability.tracing.close();
    },
  };
}

/** The portal system of one test file (per-file.ts): started before its first test, closed after its last. */
export function usePortalSystem(env: Record<string, string> = {}, options: PortalSystemOptions = {}): PortalSystem {
  return perFile(
    async () => ({ system: await startPortalSystem(env, options) }),
    ({ system }) => system.close(),
  ).system;
}

/** A user of the file's system and a browser signed in as them, made before its first test (per-file.ts). */
export function useSignedInBrowser(system: PortalSystem, name: string): { user: TestUser; browser: PortalBrowser } {
  return perFile(async () => {
    const user = await makeUser(system, name);
    const browser = new PortalBrowser(system);
    await browser.signIn(user);
    return { user, browser };
  });
}

/** The stored session a portal cookie names (`lk_portal_sid`'s value), if the store still holds it. */
export async function storedSession(system: PortalSystem, cookieValue: string): Promise<{ sid: string } | undefined> {
  return system.db
    .selectFrom('sessions')
    .select('sid')
    .where('sid', '=', `portal:${sessionIdOf(cookieValue)}`)
    .executeTakeFirst();
}

export interface SecondBff {
  url: string;
  close(): Promise<void>;
}

/**
 * Another BFF over the same database, sessions and secrets (a session signed in through the
 * first works here), with its own configuration, fetch, time limit or database: to point the
 * proxy at a stand-in upstream or inject a network or storage fault without touching the real
 * servers.
 */
export async function startSecondBff(
  system: PortalSystem,
  overrides: { config?: Config; db?: Db; fetch?: typeof fetch; upstreamTimeoutMs?: number; portalDist?: string } = {},
): Promise<SecondBff> {
  const server = createServer(
    createBffApp({
      config: overrides.config ?? system.config,
      db: overrides.db ?? system.db,
      clock: system.clock,
      logger: system.bffLogger,
      ...(overrides.fetch === undefined ? {} : { fetch: overrides.fetch }),
      ...(overrides.upstreamTimeoutMs === undefined ? {} : { upstreamTimeoutMs: overrides.upstreamTimeoutMs }),
      ...(overrides.portalDist === undefined ? {} : { portalDist: overrides.portalDist }),
    }),
  );
  const port = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => closeServer(server),
  };
}

export interface PortalResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The JSON body, when it is JSON. */
  body: any;
  /** Absolute URL of the Location header, if any. */
  location: string | undefined;
}

export interface PortalRequestInit {
  method?: string;
  /** Sent as application/json. */
  json?: unknown;
  body?: string;
  /** Added to (or, with undefined, removed from) the headers a same-origin SPA fetch sends. */
  headers?: Record<string, string | undefined>;
}

/**
 * A browser using the portal: the SPA's same-origin fetches (with `X-Latchkey-Portal: 1`,
 * `Origin` and `Sec-Fetch-Site: same-origin` on writes, as the contract asks) and the
 * navigations of a sign-in. Keeps one cookie jar for the portal and one for the
 * authorization server, and records every response it receives in `transcript`.
 */
export class PortalBrowser {
  readonly jar = new CookieJar();
  readonly authJar = new CookieJar();
  /** Every response received, BFF and authorization server: status, headers and body. */
  readonly transcript: string[] = [];
  readonly system: PortalSystem;
  /** Sent with every request to the BFF, e.g. `X-Forwarded-Proto` from a TLS-terminating proxy. */
  readonly defaultHeaders: Record<string, string>;

  constructor(system: PortalSystem, options: { defaultHeaders?: Record<string, string> } = {}) {
    this.system = system;
    this.defaultHeaders = options.defaultHeaders ?? {};
  }

  /** The portal's public origin (PORTAL_URL), which the browser sends as Origin. */
  get origin(): string {
    return new URL(this.system.config.portal.url).origin;
  }

  /** Records a response: the request's path only (no query), then status, headers and body. */
  #record(url: string, status: number, headers: Headers, text: string): void {
    const lines = [...headers].map(([name, value]) => `${name}: ${value}`);
    for (const cookie of headers.getSetCookie()) lines.push(`set-cookie: ${cookie}`);
    const path = new URL(url, this.system.portalUrl).pathname;
    this.transcript.push(`${status} ${path}\n${lines.join('\n')}\n\n${text}`);
  }

  /** One request to the BFF. Writes carry the SPA's CSRF headers unless `headers` removes them. */
  async request(path: string, init: PortalRequestInit = {}): Promise<PortalResponse> {
    const method = init.method ?? (init.json === undefined && init.body === undefined ? 'GET' : 'POST');
    const url = new URL(path, this.system.portalUrl).toString();
    const defaults: Record<string, string> =
      method === 'GET' || method === 'HEAD'
        ? { ...this.defaultHeaders, 'sec-fetch-site': 'same-origin', accept: 'application/json' }
        : {
            ...this.defaultHeaders,
            'sec-fetch-site': 'same-origin',
            origin: this.origin,
            'x-latchkey-portal': '1',
            accept: 'application/json',
          };
    if (init.json !== undefined) defaults['content-type'] = 'application/json';
    const headers: Record<string, string> = { ...defaults };
    for (const [name, value] of Object.entries(init.headers ?? {})) {
      if (value === undefined) delete headers[name.toLowerCase()];
      else headers[name.toLowerCase()] = value;
    }
    const cookie = this.jar.header();
    if (cookie !== undefined && headers.cookie === undefined) headers.cookie = cookie;
    const response = await fetch(url, {
      method,
      headers,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      redirect: 'manual',
    });
    this.jar.store(response);
    const text = method === 'HEAD' ? '' : await response.text();
    this.#record(url, response.status, response.headers, text);
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const location = response.headers.get('location');
    return {
      status: response.status,
      headers: response.headers,
      text,
      body,
      location: location === null ? undefined : new URL(location, url).toString(),
    };
  }

  /** A top-level navigation to the BFF (sign-in start, callback): accepts HTML, no CSRF headers. */
  navigate(path: string, headers: Record<string, string | undefined> = {}): Promise<PortalResponse> {
    return this.request(path, { headers: { accept: 'text/html', 'sec-fetch-site': 'none', ...headers } });
  }

  /** GET /bff/login; the answer redirects to the authorization server. */
  startSignIn(returnTo?: string): Promise<PortalResponse> {
    const query = returnTo === undefined ? '' : `?${new URLSearchParams({ returnTo }).toString()}`;
    return this.navigate(`/bff/login${query}`);
  }

  async #page(url: string, step: (jar: CookieJar) => Promise<PageResult>): Promise<PageResult> {
    const page = await step(this.authJar);
    this.#record(url, page.status, page.headers, page.html);
    return page;
  }

  /**
   * Follows the authorization server's pages from `authorizeUrl` (signing in with `user` if
   * asked, allowing consent if shown) until the redirect back to the portal, and returns
   * that callback URL without visiting it.
   */
  async authorize(authorizeUrl: string, user: Credentials): Promise<string> {
    const system = { authUrl: this.system.authUrl };
    let page = await this.#page(authorizeUrl, (jar) => fetchPage(system, jar, authorizeUrl));
    for (let hops = 0; hops < 6; hops += 1) {
      if (page.step === 'signin') {
        const current = page;
        page = await this.#page('/signin', (jar) => submitSignIn(system, jar, current, user));
        if (page.step === 'signin') throw new Error(`sign-in failed with status ${page.status}`);
        continue;
      }
      if (page.step === 'consent') {
        const current = page;
        page = await this.#page('/oauth/authorize/decision', (jar) => submitDecision(system, jar, current, 'allow'));
        continue;
      }
      if (page.step === 'redirect' && page.location?.startsWith(this.system.authUrl)) {
        const next = page.location;
        page = await this.#page(next, (jar) => fetchPage(system, jar, next));
        continue;
      }
      if (page.step === 'redirect' && page.location?.startsWith(`${this.origin}/`)) return page.location;
      throw new Error(`the authorization server did not send the browser back: ${page.step} ${page.status}`);
    }
    throw new Error('too many hops at the authorization server');
  }

  /**
   * The whole sign-in: /bff/login → the authorization server's pages → /bff/callback.
   * Returns the callback's answer (302 to the return path on success).
   */
  async signIn(user: Credentials, options: { returnTo?: string } = {}): Promise<PortalResponse> {
    const start = await this.startSignIn(options.returnTo);
    if (start.status !== 302 || !start.location)
      throw new Error(`sign-in did not start: ${start.status} ${start.text}`);
    const callback = new URL(await this.authorize(start.location, user));
    return this.navigate(`${callback.pathname}${callback.search}`, { 'sec-fetch-site': 'same-site' });
  }

  /** The portal session cookie's value, whichever name it has (`__Host-` over https). */
  sessionCookie(): string | undefined {
    return this.jar.get('lk_portal_sid') ?? this.jar.get('__Host-lk_portal_sid');
  }
}

/** The session id inside a signed `s:<id>.<signature>` cookie value. */
export function sessionIdOf(cookieValue: string): string {
  const match = /^s:([^.]+)\./.exec(decodeURIComponent(cookieValue));
  if (!match) throw new Error('not a signed session cookie');
  return match[1]!;
}

/**
 * The tokens the BFF holds for this browser's session, decrypted as the BFF would (they are
 * stored sealed). Undefined when the browser has no stored session.
 */
export async function readSessionTokens(
  system: PortalSystem,
  browser: PortalBrowser,
): Promise<{ accessToken: string; refreshToken: string; stored: string } | undefined> {
  const cookie = browser.sessionCookie();
  if (cookie === undefined) return undefined;
  const row = await system.db
    .selectFrom('sessions')
    .select('data')
    .where('sid', '=', `portal:${sessionIdOf(cookie)}`)
    .executeTakeFirst();
  if (!row) return undefined;
  const tokens = (JSON.parse(row.data) as { portal?: { tokens: { accessToken: string; refreshToken: string } } }).portal
    ?.tokens;
  if (!tokens) return undefined;
  const sealer = createTokenSealer(system.config.sessionSecret);
  return {
    accessToken: sealer.open(tokens.accessToken)!,
    refreshToken: sealer.open(tokens.refreshToken)!,
    stored: row.data,
  };
}

/** The Set-Cookie line for `name` in a response, or undefined. */
export function setCookieLine(headers: Headers, name: string): string | undefined {
  return headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}
