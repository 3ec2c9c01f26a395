// A browser using the portal of a cluster, without a browser: one cookie jar for the whole
// host (browsers do not separate cookies by port, DD-9), the SPA's same-origin
// requests (Origin = the public PORTAL_URL, the custom CSRF header on writes) sent to whichever
// portal instance the test names, as a load balancer might route them, and the sign-in through
// the authorization server's real pages behind the public AUTH_URL.
import {
  CookieJar,
  fetchPage,
  submitDecision,
  submitSignIn,
  type Credentials,
  type PageResult,
} from '../../support/browserless-flow.ts';
import type { Cluster } from './cluster.ts';
import type { HttpCall } from './load-generator.ts';

export interface PortalAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
  location: string | undefined;
}

/** An instance of the portal: its own address (a ServerProcess) or a URL. */
export type PortalTarget = { url: string } | string;

const urlOf = (target: PortalTarget) => (typeof target === 'string' ? target : target.url);

export class ClusterBrowser {
  readonly jar = new CookieJar();
  readonly cluster: Cluster;

  constructor(cluster: Cluster) {
    this.cluster = cluster;
  }

  get origin(): string {
    return new URL(this.cluster.portalUrl).origin;
  }

  /** The headers the SPA's fetch sends (writes carry the CSRF header and Origin). */
  spaHeaders(method: string): Record<string, string> {
    const read = { 'sec-fetch-site': 'same-origin', accept: 'application/json' };
    const headers: Record<string, string> =
      method === 'GET' || method === 'HEAD' ? read : { ...read, origin: this.origin, 'x-latchkey-portal': '1' };
    const cookie = this.jar.header();
    if (cookie !== undefined) headers.cookie = cookie;
    return headers;
  }

  /** One SPA request to one portal instance. */
  async request(
    target: PortalTarget,
    path: string,
    init: { method?: string; json?: unknown; headers?: Record<string, string> } = {},
  ): Promise<PortalAnswer> {
    const method = init.method ?? (init.json === undefined ? 'GET' : 'POST');
    const headers = { ...this.spaHeaders(method), ...init.headers };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(path, urlOf(target)), {
      method,
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      redirect: 'manual',
      signal: AbortSignal.timeout(20_000),
    });
    this.jar.store(response);
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    const location = response.headers.get('location');
    return { status: response.status, headers: response.headers, text, body, location: location ?? undefined };
  }

  /** A top-level navigation (sign-in start, callback): HTML, no CSRF header. */
  navigate(target: PortalTarget, path: string, site = 'none'): Promise<PortalAnswer> {
    return this.request(target, path, { headers: { accept: 'text/html', 'sec-fetch-site': site } });
  }

  /** POST /bff/graphql as the SPA's GraphiQL sends it, for the load generator (cookie fixed now). */
  graphqlCall(target: PortalTarget, tag = ''): HttpCall {
    return {
      url: `${urlOf(target)}/bff/graphql`,
      method: 'POST',
      headers: { ...this.spaHeaders('POST'), 'content-type': 'application/json' },
      body: '{"query":"{ profile { name } }"}',
      tag,
    };
  }

  /**
   * The authorization server's pages from `authorizeUrl` (sign in, allow consent if asked)
   * until the redirect back to the portal's public URL, which is returned unvisited.
   */
  async authorize(authorizeUrl: string, user: Credentials): Promise<URL> {
    const flow = { authUrl: this.cluster.authUrl };
    let page: PageResult = await fetchPage(flow, this.jar, authorizeUrl);
    for (let hops = 0; hops < 6; hops += 1) {
      if (page.step === 'signin') {
        page = await submitSignIn(flow, this.jar, page, user);
        if (page.step === 'signin') throw new Error(`sign-in failed with status ${page.status}`);
      } else if (page.step === 'consent') {
        page = await submitDecision(flow, this.jar, page, 'allow');
      } else if (page.step === 'redirect' && page.location?.startsWith(this.cluster.authUrl)) {
        page = await fetchPage(flow, this.jar, page.location);
      } else if (page.step === 'redirect' && page.location?.startsWith(`${this.origin}/`)) {
        return new URL(page.location);
      } else {
        throw new Error(`the authorization server did not send the browser back: ${page.step} ${page.status}`);
      }
    }
    throw new Error('too many hops at the authorization server');
  }

  /**
   * The whole sign-in: /bff/login on `via`, the authorization server's pages, and the
   * callback on `callbackVia` (another instance, when a balancer routes it there).
   * Returns the callback's answer (302 to the return path on success).
   */
  async signIn(user: Credentials, via: PortalTarget, callbackVia: PortalTarget = via): Promise<PortalAnswer> {
    const start = await this.navigate(via, '/bff/login');
    if (start.status !== 302 || !start.location)
      throw new Error(`sign-in did not start: ${start.status} ${start.text}`);
    const callback = await this.authorize(start.location, user);
    return this.navigate(callbackVia, `${callback.pathname}${callback.search}`, 'same-site');
  }

  /** The portal session cookie's value. */
  sessionCookie(): string | undefined {
    return this.jar.get('lk_portal_sid');
  }
}
