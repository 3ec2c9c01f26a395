import {
  accountRoute,
  accountUrl,
  BFF_ACCOUNT_BASE,
  type AccountAnswer,
  type AccountMethod,
  type AccountPath,
  type AccountPathWithId,
  type AccountRoute,
} from '@latchkey/contracts';
import { bff, paths } from '../config/paths.ts';
import { saveOpenDialogDraft } from './dialog-draft.ts';

/**
 * The one HTTP client of the portal. It talks only to the BFF, same-origin,
 * with the session cookie; it never sees an OAuth token. Every state-changing request carries
 * `X-Latchkey-Portal: 1`, which the BFF requires against CSRF (DD-9, BF-CS-01).
 */

/** The error body of the BFF and the account endpoints: `{error, error_description?, field?}`. */
interface ErrorBody {
  error?: unknown;
  error_description?: unknown;
  field?: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Set on 400 `validation_failed`: the request field the message is about (`name`, `redirect_uri`…). */
  readonly field: string | undefined;

  constructor(status: number, code: string, message: string, field?: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** The session is gone; the browser has been sent to sign in and will come back here. */
export class SessionEndedError extends ApiError {
  constructor() {
    super(401, 'unauthenticated', 'Your session has ended. Taking you to sign in…');
    this.name = 'SessionEndedError';
  }
}

export const PORTAL_HEADER = 'X-Latchkey-Portal';

/**
 * Set once this page has left for sign-in. Several requests answered 401 together start one
 * sign-in, not one each: each /bff/login replaces the browser's login transaction, and two in
 * flight can leave the cookie of one beside the authorization request of the other, so the
 * callback is refused ("does not belong to the sign-in this browser started").
 */
let leavingForSignIn = false;
// A page restored from the back-forward cache is on screen again and may need to sign in anew.
window.addEventListener('pageshow', (event) => {
  if (event.persisted) leavingForSignIn = false;
});

/** Sends the browser to the BFF's sign-in, which returns it to the current page afterwards. */
export function redirectToSignIn(): void {
  // After Sign out, a late answer must not sign the user straight back in.
  if (window.location.pathname === paths.signedOut.path || leavingForSignIn) return;
  leavingForSignIn = true;
  // AX-11: what was typed in an open form comes back after the sign-in (lib/dialog-draft.ts).
  saveOpenDialogDraft();
  window.location.assign(bff.login(window.location.pathname + window.location.search));
}

/** Tests only: the page is fresh again (window.location.assign is stubbed there, so it never leaves). */
export function resetSignInRedirect(): void {
  leavingForSignIn = false;
}

function fallbackMessage(status: number): string {
  if (status === 403) return 'The portal refused this request. Reload the page and try again.';
  if (status === 404) return 'That item no longer exists. It may have been removed in another tab.';
  if (status === 429) return 'Too many requests. Wait a moment and try again.';
  if (status >= 500) return 'The service is temporarily unavailable. Try again shortly.';
  return 'The request could not be completed.';
}

async function errorFrom(response: Response): Promise<ApiError> {
  let body: ErrorBody = {};
  try {
    const parsed: unknown = await response.json();
    if (typeof parsed === 'object' && parsed !== null) body = parsed as ErrorBody;
  } catch {
    // A proxy's HTML error page, or no body: the status alone says enough.
  }
  const code = typeof body.error === 'string' ? body.error : `http_${response.status}`;
  const message =
    typeof body.error_description === 'string' && body.error_description.length > 0
      ? body.error_description
      : fallbackMessage(response.status);
  return new ApiError(response.status, code, message, typeof body.field === 'string' ? body.field : undefined);
}

export interface BffRequest {
  method?: 'GET' | 'POST' | 'PATCH';
  /** Sent as an `application/json` body. */
  json?: unknown;
  signal?: AbortSignal;
  /** By default a 401 sends the user to sign in; sign-out treats it as "already signed out". */
  on401?: 'sign-in' | 'return';
}

/** A request to the BFF; resolves with the raw response for any status but 401. */
export async function bffFetch(path: string, request: BffRequest = {}): Promise<Response> {
  const method = request.method ?? 'GET';
  const headers = new Headers({ Accept: 'application/json' });
  if (method !== 'GET') headers.set(PORTAL_HEADER, '1');
  let body: string | undefined;
  if (request.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(request.json);
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body, credentials: 'same-origin', signal: request.signal });
  } catch (err) {
    if (request.signal?.aborted) throw err;
    throw new ApiError(
      0,
      'network_error',
      'Could not reach the portal. Check your connection and try again.',
      undefined,
      {
        cause: err,
      },
    );
  }
  if (response.status === 401 && request.on401 !== 'return') {
    redirectToSignIn();
    throw new SessionEndedError();
  }
  return response;
}

/** What an answer must look like: one of packages/contracts' schemas (anything with zod's safeParse). */
export interface AnswerSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false };
}

/**
 * A JSON request: resolves with the body of a 2xx as `schema` parses it (packages/contracts),
 * rejects with an ApiError otherwise, or when the answer is not what the contract says.
 */
export async function apiRequest<T>(path: string, schema: AnswerSchema<T>, request: BffRequest = {}): Promise<T> {
  const response = await bffFetch(path, request);
  if (!response.ok) throw await errorFrom(response);
  const parsed = schema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw new ApiError(
      response.status,
      'unexpected_response',
      'The portal answered in a way this page does not understand. Reload the page and try again.',
    );
  }
  return parsed.data;
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong. Try again.';
}

/** The query parameters the route table gives a path (its `query`), which the BFF forwards; none when absent. */
type AccountQuery<P extends AccountPath> =
  Extract<AccountRoute, { path: P }> extends { query: readonly (infer Q extends string)[] }
    ? Partial<Record<Q, string | undefined>>
    : never;

/** `?a=1&b=2` of the parameters given, in the order given; nothing when none is (so the URL is the BFF's preload's). */
function queryString(query: Record<string, string | undefined> | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(name, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * A call to a route of the account table (packages/contracts ACCOUNT_ROUTES) through the BFF:
 * the URL and the answer's schema both come from the table, so a fetcher names only the
 * route, e.g. `accountRequest('PATCH', '/clients/:id', { id, json })`. A route with `query`
 * in the table takes those parameters, and only those (AU-08's `type` and `before`).
 */
export function accountRequest<P extends AccountPath, M extends AccountMethod<P>>(
  method: M,
  path: P,
  request: Omit<BffRequest, 'method'> &
    (P extends AccountPathWithId ? { id: string } : { id?: never }) & { query?: AccountQuery<P> } = {} as never,
): Promise<AccountAnswer<P, M>> {
  const { id, query, ...rest } = request as Omit<BffRequest, 'method'> & {
    id?: string;
    query?: Record<string, string | undefined>;
  };
  const answers: Record<string, AnswerSchema<unknown>> = accountRoute(path).answers;
  const url = (accountUrl as (base: string, path: string, ...id: string[]) => string)(
    BFF_ACCOUNT_BASE,
    path,
    ...(id === undefined ? [] : [id]),
  );
  return apiRequest(`${url}${queryString(query)}`, answers[method]!, {
    ...rest,
    method: method as BffRequest['method'],
  }) as Promise<AccountAnswer<P, M>>;
}
