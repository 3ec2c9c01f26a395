import * as oidc from 'openid-client';
import type { Tracing } from '@latchkey/observability';
import type { BffDeps } from '../deps.ts';
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from '../deps.ts';
import { upstreamFailure } from '../proxy/upstream-failure.ts';
import { GrantRejected } from './oidc.errors.ts';

/** What a code exchange or a refresh hands the session, in plaintext, for sealing at once. */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  /** ms on the injected clock, or null when the server gave no `expires_in`. */
  expiresAt: number | null;
}

export interface PortalOidcClient {
  /** The issuer every authorization response must name (RFC 9207, MX-01). */
  readonly issuer: string;
  /** Whether the server promises `iss` in every authorization response (RFC 9207 §3). */
  issParameterRequired(): Promise<boolean>;
  authorizationUrl(params: { state: string; codeChallenge: string; prompt?: 'login' }): Promise<URL>;
  /** RFC 6749 §4.1.3 with the PKCE verifier; `callback` holds only code, state and iss. */
  exchangeCode(callback: URL, checks: { state: string; codeVerifier: string }): Promise<IssuedTokens>;
  /** RFC 6749 §6. The server rotates the refresh token on every use (DD-4). */
  refresh(refreshToken: string): Promise<IssuedTokens>;
  /** RFC 7009. Revoking the refresh token revokes the whole grant (D-5). */
  revoke(refreshToken: string): Promise<void>;
  /**
   * The authorization server's end-session endpoint (RP-Initiated Logout 1.0 §2) for the
   * portal: its client_id and registered post-logout URL (PORTAL_URL/signed-out).
   */
  endSessionUrl(): Promise<URL>;
}

/** RFC 6749 §5.2: an error code is 1*NQSCHAR; anything else is not an OAuth answer. */
const OAUTH_ERROR = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/;

/**
 * OB-15, OB-17: while tracing is on, each call to the authorization server (discovery, code exchange,
 * refresh, revocation) is a client span whose traceparent the server continues. Only the
 * method and the URL without its query are recorded: the bodies hold the client secret, codes
 * and refresh tokens.
 */
function tracedFetch(fetchImpl: typeof fetch, tracing: Tracing | undefined): typeof fetch {
  if (!tracing?.enabled) return fetchImpl;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = init?.method ?? 'GET';
    const span = tracing.startSpan(method, 'client', {
      'http.request.method': method,
      'server.address': url.hostname,
      'url.full': `${url.origin}${url.pathname}`,
    });
    const trace: Record<string, string> = {};
    span.inject(trace);
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(trace)) headers.set(name, value);
    try {
      const response = await fetchImpl(input, { ...init, headers });
      span.set('http.response.status_code', response.status);
      span.end();
      return response;
    } catch (err) {
      span.end(err);
      throw err;
    }
  };
}

function rethrow(err: unknown): never {
  // A 4xx JSON error body from the token or revocation endpoint is an OAuth answer; a 5xx
  // (temporarily_unavailable, D-10) or anything unparseable is the server being unwell.
  if (err instanceof oidc.ResponseBodyError && err.status < 500 && OAUTH_ERROR.test(err.error)) {
    throw new GrantRejected(err.error, { cause: err });
  }
  if (err instanceof oidc.AuthorizationResponseError) throw new GrantRejected(err.error, { cause: err });
  throw upstreamFailure(err, 'authorization server');
}

/**
 * The portal as a confidential client of its own authorization server, on openid-client 6
 * (DD-9). RFC 8414 metadata is fetched once and cached; a failed discovery is
 * retried on the next sign-in. The client secret stays here and in the token requests.
 */
export function createOidcClient(deps: BffDeps): PortalOidcClient {
  const { config } = deps;
  const issuer = config.auth.url;
  const timeoutMs = deps.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const fetchImpl = tracedFetch(deps.fetch ?? globalThis.fetch, deps.observability?.tracing);
  let discovered: Promise<oidc.Configuration> | undefined;

  function configuration(): Promise<oidc.Configuration> {
    discovered ??= oidc
      .discovery(
        new URL(issuer),
        config.portal.clientId,
        undefined,
        oidc.ClientSecretPost(config.portal.clientSecret),
        {
          algorithm: 'oauth2',
          // Plain http only where the issuer itself is http (local and test set-ups);
          // production configuration refuses http URLs.
          execute: issuer.startsWith('http://') ? [oidc.allowInsecureRequests] : [],
          timeout: Math.max(1, Math.ceil(timeoutMs / 1000)),
          [oidc.customFetch]: (url, options) => fetchImpl(url, options as RequestInit),
        },
      )
      .catch((err: unknown) => {
        discovered = undefined;
        throw upstreamFailure(err, 'authorization server');
      });
    return discovered;
  }

  function toIssued(response: oidc.TokenEndpointResponse): IssuedTokens {
    if (typeof response.refresh_token !== 'string' || response.refresh_token === '') {
      throw new GrantRejected('missing_refresh_token');
    }
    const expiresIn = response.expires_in;
    return {
      accessToken: response.access_token,
      refreshToken: response.refresh_token,
      expiresAt: typeof expiresIn === 'number' && expiresIn > 0 ? deps.clock.now() + expiresIn * 1000 : null,
    };
  }

  return {
    issuer,
    async issParameterRequired() {
      return (await configuration()).serverMetadata().authorization_response_iss_parameter_supported === true;
    },
    async authorizationUrl({ state, codeChallenge, prompt }) {
      return oidc.buildAuthorizationUrl(await configuration(), {
        response_type: 'code',
        redirect_uri: config.portal.redirectUri,
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        ...(prompt ? { prompt } : {}),
      });
    },
    async exchangeCode(callback, { state, codeVerifier }) {
      const configured = await configuration();
      const response = await oidc
        .authorizationCodeGrant(configured, callback, { expectedState: state, pkceCodeVerifier: codeVerifier })
        .catch(rethrow);
      return toIssued(response);
    },
    async refresh(refreshToken) {
      const response = await oidc.refreshTokenGrant(await configuration(), refreshToken).catch(rethrow);
      return toIssued(response);
    },
    async revoke(refreshToken) {
      await oidc
        .tokenRevocation(await configuration(), refreshToken, { token_type_hint: 'refresh_token' })
        .catch(rethrow);
    },
    async endSessionUrl() {
      return oidc.buildEndSessionUrl(await configuration(), {
        post_logout_redirect_uri: config.portal.postLogoutRedirectUri,
      });
    },
  };
}
