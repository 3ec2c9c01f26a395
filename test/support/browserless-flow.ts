// Drives the authorization server's real pages over HTTP, as a browser would but without
// one: a cookie jar, `redirect: 'manual'` so every hop is visible, and the hidden form fields
// (CSRF token, pending request id) read from the HTML. Tests use the high-level
// `authorizeViaPages` or the individual steps to probe each one.

/** What these helpers need from a TestSystem. */
export interface FlowSystem {
  authUrl: string;
}

export interface Credentials {
  email: string;
  password: string;
}

/** Parameters of GET /oauth/authorize. `extra` adds raw parameters (unknown or duplicated ones). */
export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  state?: string;
  codeChallenge?: string;
  /** Defaults to S256 when codeChallenge is set. */
  codeChallengeMethod?: string;
  prompt?: string;
  /** Defaults to `code`. */
  responseType?: string;
  extra?: ReadonlyArray<[string, string]>;
}

/** Which page or answer a response is. */
export type PageStep = 'signin' | 'signup' | 'consent' | 'redirect' | 'error' | 'other';

export interface PageResult {
  url: string;
  status: number;
  headers: Headers;
  /** Absolute URL of the Location header, if any. */
  location: string | undefined;
  html: string;
  step: PageStep;
}

export interface AuthorizationResponse {
  /** The Location the browser was sent to (the client's redirect URI with the response). */
  location: string;
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
  errorDescription?: string;
}

/** A minimal cookie jar for one origin: name → value; honours deletion (Max-Age=0 / past Expires). */
export class CookieJar {
  readonly #cookies = new Map<string, string>();

  /** Reads every Set-Cookie header of a response. */
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => {
        const [key = '', val = ''] = a.split('=').map((s) => s.trim());
        if (key.toLowerCase() === 'max-age') return Number(val) <= 0;
        if (key.toLowerCase() === 'expires') return Date.parse(val) <= Date.now();
        return false;
      });
      if (expired || value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  set(name: string, value: string): void {
    this.#cookies.set(name, value);
  }

  delete(name: string): void {
    this.#cookies.delete(name);
  }

  names(): string[] {
    return [...this.#cookies.keys()];
  }

  /** The Cookie request header, or undefined when the jar is empty. */
  header(): string | undefined {
    if (this.#cookies.size === 0) return undefined;
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  clone(): CookieJar {
    const copy = new CookieJar();
    for (const [name, value] of this.#cookies) copy.set(name, value);
    return copy;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#96': '`' };

export function decodeHtmlEntities(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_m, name: string) => ENTITIES[name]!);
}

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of tag.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*"([^"]*)")?/g)) {
    out[match[1]!.toLowerCase()] = decodeHtmlEntities(match[2] ?? '');
  }
  return out;
}

/** The `<form>` whose action is `action` (or the first form), with its hidden fields. */
export function findForm(
  html: string,
  action?: string,
): { action: string; method: string; fields: Record<string, string> } | undefined {
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const attrs = attributes(match[1]!);
    if (action !== undefined && attrs.action !== action) continue;
    const fields: Record<string, string> = {};
    for (const input of match[2]!.matchAll(/<input\b([^>]*)>/g)) {
      const a = attributes(input[1]!);
      if (a.type === 'hidden' && a.name !== undefined) fields[a.name] = a.value ?? '';
    }
    return { action: attrs.action ?? '', method: (attrs.method ?? 'get').toLowerCase(), fields };
  }
  return undefined;
}

/**
 * The attributes of the input that the `<label>` with this text names through for/id
 * (accessible labelling), or undefined when there is no such pair.
 */
export function findLabelledInput(html: string, labelText: string): Record<string, string> | undefined {
  for (const label of html.matchAll(/<label\b([^>]*)>([\s\S]*?)<\/label>/g)) {
    if (decodeHtmlEntities(label[2]!.replace(/<[^>]*>/g, '').trim()) !== labelText) continue;
    const id = attributes(label[1]!).for;
    if (id === undefined) return undefined;
    for (const input of html.matchAll(/<(?:input|select|textarea)\b([^>]*)>/g)) {
      const attrs = attributes(input[1]!);
      if (attrs.id === id) return attrs;
    }
  }
  return undefined;
}

/** The visible text of every `<button>` and its attributes. */
export function findButtons(html: string): Array<{ text: string; attributes: Record<string, string> }> {
  return [...html.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map((m) => ({
    text: decodeHtmlEntities(m[2]!.replace(/<[^>]*>/g, '').trim()),
    attributes: attributes(m[1]!),
  }));
}

/** The visible text of every `<a href>` and the href. */
export function findLinks(html: string): Array<{ text: string; href: string }> {
  return [...html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g)].map((m) => ({
    text: decodeHtmlEntities(m[2]!.replace(/<[^>]*>/g, '').trim()),
    href: attributes(m[1]!).href ?? '',
  }));
}

function classify(status: number, html: string): PageStep {
  if (status >= 300 && status < 400) return 'redirect';
  if (status >= 400 && status !== 422) return 'error';
  if (html.includes('action="/oauth/authorize/decision"')) return 'consent';
  if (html.includes('action="/signin"')) return 'signin';
  if (html.includes('action="/signup"')) return 'signup';
  return 'other';
}

/**
 * One request to the authorization server with the jar's cookies; stores the cookies it
 * sets. `form` is sent url-encoded (repeat a name by passing an array).
 */
export async function fetchPage(
  system: FlowSystem,
  jar: CookieJar,
  pathOrUrl: string,
  init: {
    method?: string;
    form?: Record<string, string | string[] | undefined>;
    headers?: Record<string, string>;
  } = {},
): Promise<PageResult> {
  const url = new URL(pathOrUrl, system.authUrl).toString();
  const headers: Record<string, string> = { accept: 'text/html', ...init.headers };
  const cookie = jar.header();
  if (cookie) headers.cookie = cookie;
  let body: string | undefined;
  if (init.form) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(init.form)) {
      for (const v of value === undefined ? [] : Array.isArray(value) ? value : [value]) params.append(name, v);
    }
    body = params.toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  const response = await fetch(url, {
    method: init.method ?? (init.form ? 'POST' : 'GET'),
    headers,
    body,
    redirect: 'manual',
  });
  jar.store(response);
  const html = await response.text();
  const location = response.headers.get('location');
  return {
    url,
    status: response.status,
    headers: response.headers,
    location: location === null ? undefined : new URL(location, url).toString(),
    html,
    step: classify(response.status, html),
  };
}

/** GET /oauth/authorize URL with the parameters in a fixed order. */
export function authorizeUrl(system: FlowSystem, request: AuthorizeRequest): string {
  const params = new URLSearchParams();
  params.append('client_id', request.clientId);
  params.append('response_type', request.responseType ?? 'code');
  params.append('redirect_uri', request.redirectUri);
  if (request.state !== undefined) params.append('state', request.state);
  if (request.prompt !== undefined) params.append('prompt', request.prompt);
  if (request.codeChallenge !== undefined) {
    params.append('code_challenge', request.codeChallenge);
    params.append('code_challenge_method', request.codeChallengeMethod ?? 'S256');
  } else if (request.codeChallengeMethod !== undefined) {
    params.append('code_challenge_method', request.codeChallengeMethod);
  }
  for (const [name, value] of request.extra ?? []) params.append(name, value);
  return `${system.authUrl}/oauth/authorize?${params.toString()}`;
}

/** Reads an authorization response (success or error) from a Location. */
export function parseAuthorizationRedirect(location: string): AuthorizationResponse {
  const params = new URL(location).searchParams;
  const read = (name: string) => params.get(name) ?? undefined;
  const result: AuthorizationResponse = { location };
  for (const [key, name] of [
    ['code', 'code'],
    ['state', 'state'],
    ['iss', 'iss'],
    ['error', 'error'],
    ['errorDescription', 'error_description'],
  ] as const) {
    const value = read(name);
    if (value !== undefined) result[key] = value;
  }
  return result;
}

/** Step 1: GET /oauth/authorize. The answer is a sign-in page, a consent page, a redirect or an error page. */
export async function openAuthorize(
  system: FlowSystem,
  jar: CookieJar,
  request: AuthorizeRequest,
): Promise<PageResult> {
  return fetchPage(system, jar, authorizeUrl(system, request));
}

/** Follows one Location on the authorization server (not to the client). */
export async function followRedirect(system: FlowSystem, jar: CookieJar, result: PageResult): Promise<PageResult> {
  if (!result.location) throw new Error(`expected a redirect, got ${result.status}`);
  return fetchPage(system, jar, result.location);
}

/**
 * Submits the sign-in form found on `page` (a sign-in page, standalone or for an
 * authorization request) with these credentials. `overrides` replaces or removes fields
 * (undefined removes), e.g. to drop the CSRF token.
 */
export async function submitSignIn(
  system: FlowSystem,
  jar: CookieJar,
  page: PageResult,
  credentials: Credentials,
  overrides: Record<string, string | string[] | undefined> = {},
): Promise<PageResult> {
  const form = findForm(page.html, '/signin');
  if (!form) throw new Error(`no sign-in form on the page (status ${page.status})`);
  return fetchPage(system, jar, '/signin', { form: { ...form.fields, ...credentials, ...overrides } });
}

/**
 * Signs in through GET /signin then POST /signin and returns the POST's answer (303 on
 * success, 422 with the form again on failure). `returnTo` is passed as `return_to`.
 */
export async function signIn(
  system: FlowSystem,
  jar: CookieJar,
  credentials: Credentials,
  options: { returnTo?: string } = {},
): Promise<PageResult> {
  const query =
    options.returnTo === undefined ? '' : `?${new URLSearchParams({ return_to: options.returnTo }).toString()}`;
  const page = await fetchPage(system, jar, `/signin${query}`);
  if (page.step === 'redirect') return page;
  return submitSignIn(system, jar, page, credentials);
}

/**
 * Opens the authorization request and signs in if asked, following the server's own
 * redirects, until a consent page, a redirect to the client or an error page.
 */
export async function driveToDecision(
  system: FlowSystem,
  jar: CookieJar,
  request: AuthorizeRequest,
  user?: Credentials,
): Promise<PageResult> {
  let page = await openAuthorize(system, jar, request);
  for (let hops = 0; hops < 5; hops += 1) {
    if (page.step === 'signin') {
      if (!user) return page;
      page = await submitSignIn(system, jar, page, user);
      if (page.step === 'signin') throw new Error(`sign-in failed with status ${page.status}`);
      continue;
    }
    if (page.step === 'redirect' && page.location?.startsWith(system.authUrl)) {
      page = await followRedirect(system, jar, page);
      continue;
    }
    return page;
  }
  throw new Error('too many hops before a decision');
}

/** Like driveToDecision, but insists on ending at the consent page. */
export async function getConsent(
  system: FlowSystem,
  jar: CookieJar,
  request: AuthorizeRequest,
  user?: Credentials,
): Promise<PageResult> {
  const page = await driveToDecision(system, jar, request, user);
  if (page.step !== 'consent')
    throw new Error(`expected the consent page, got ${page.step} (${page.status}) ${page.location ?? ''}`);
  return page;
}

/**
 * Submits the consent form on `consentPage` with Allow or Deny. `overrides` replaces or
 * removes fields (undefined removes), e.g. another request's CSRF token (CS-01).
 */
export async function submitDecision(
  system: FlowSystem,
  jar: CookieJar,
  consentPage: PageResult,
  decision: 'allow' | 'deny',
  overrides: Record<string, string | string[] | undefined> = {},
): Promise<PageResult> {
  const form = findForm(consentPage.html, '/oauth/authorize/decision');
  if (!form) throw new Error(`no consent form on the page (status ${consentPage.status})`);
  return fetchPage(system, jar, '/oauth/authorize/decision', { form: { ...form.fields, decision, ...overrides } });
}

export interface AuthorizeViaPagesOptions extends AuthorizeRequest {
  user: Credentials;
  /** Allow (default) or Deny on the consent page, if it is shown. */
  approve?: boolean;
  /** Reuse a browser (e.g. one already signed in); a fresh jar otherwise. */
  jar?: CookieJar;
}

/**
 * The whole browser flow: authorize → sign in if asked → consent if asked → the redirect to
 * the client, parsed. Throws if the flow ends on an error page or anywhere but a redirect.
 */
export async function authorizeViaPages(
  system: FlowSystem,
  options: AuthorizeViaPagesOptions,
): Promise<AuthorizationResponse & { jar: CookieJar }> {
  const jar = options.jar ?? new CookieJar();
  let page = await driveToDecision(system, jar, options, options.user);
  if (page.step === 'consent')
    page = await submitDecision(system, jar, page, options.approve === false ? 'deny' : 'allow');
  if (page.step !== 'redirect' || !page.location) {
    throw new Error(`authorization did not end in a redirect: ${page.step} ${page.status}`);
  }
  return { ...parseAuthorizationRedirect(page.location), jar };
}
