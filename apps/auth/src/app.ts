import {
  assignRequestId,
  corsForBrowserApps,
  healthEndpoints,
  parseTrustProxy,
  observeRequests,
  withRequestIds,
} from '@latchkey/http';
import express from 'express';
import { createObservability, traceQueries } from '@latchkey/observability';
import { SigningKeyRing, signingKeySealer } from '@latchkey/core';
import { accountRouter } from './account/account.router.ts';
import type { AuthDeps } from './deps.ts';
import { authorizeRouter } from './authorization/authorize.router.ts';
import { DISCOVERY_PATH, discoveryRouter, OPENID_CONFIGURATION_PATH } from './endpoints/discovery/discovery.router.ts';
import { introspectRouter } from './endpoints/introspect/introspect.router.ts';
import { JWKS_PATH, jwksRouter } from './endpoints/jwks/jwks.router.ts';
import { logoutRouter } from './endpoints/logout/logout.router.ts';
import { credentialsRevokeRouter } from './endpoints/credentials-revoke/credentials-revoke.router.ts';
import { clientAuthRateLimits } from './endpoints/oauth-json/client-auth.rate-limit.ts';
import { registerRouter } from './endpoints/register/register.router.ts';
import { deviceAuthorizationRouter } from './endpoints/device-authorization/device-authorization.router.ts';
import { REVOKE_PATH, revokeRouter } from './endpoints/revoke/revoke.router.ts';
import { USERINFO_PATH, userinfoRouter } from './endpoints/userinfo/userinfo.router.ts';
import { TOKEN_PATH, tokenRouter } from './endpoints/token/token.router.ts';
import { assetsRouter } from './http/assets.router.ts';
import { errorHandler, notFoundHandler } from './http/error-handler.ts';
import { securityHeaders } from './http/security-headers.ts';
import { sessionMiddleware } from './http/session.ts';
import { consentRouter } from './authorization/consent/consent.router.ts';
import { homeRouter } from './interaction/home/home.router.ts';
import { deviceRouter } from './interaction/device/device.router.ts';
import { signInRouter } from './interaction/login/signin.router.ts';
import { signUpRouter } from './interaction/signup/signup.router.ts';

/**
 * Builds the authorization server: our own code on Express 5, not oidc-provider, whose defaults fight
 * the documented interface (DD-1). Does no I/O; main.ts and tests listen on it.
 */
export function createAuthApp(given: AuthDeps): express.Express {
  const observability = given.observability ?? createObservability();
  // Every line logged while a request is answered names its X-Request-Id.
  const deps: AuthDeps = {
    ...given,
    logger: withRequestIds(given.logger),
    observability,
    // OB-16: a span per query while tracing is on; the database itself when it is off.
    db: traceQueries(given.db, observability.tracing, given.config.databaseUrl ? 'postgresql' : 'sqlite'),
    // OI-03: one key ring per app: the keys are read once a minute, never per token.
    signingKeys:
      given.signingKeys ?? new SigningKeyRing(given.db, given.clock, signingKeySealer(given.config.sessionSecret)),
  };
  const app = express();
  app.disable('x-powered-by');
  // Behind a TLS-terminating proxy, req.secure and req.ip come from X-Forwarded-* only when
  // the proxy is trusted; Secure session cookies depend on it (BF-CK-02).
  app.set('trust proxy', parseTrustProxy(deps.config.trustProxy));

  app.use(assignRequestId);
  app.use(observeRequests({ logger: deps.logger, observability: deps.observability!, server: 'auth' }));
  app.use(securityHeaders({ https: deps.config.auth.url.startsWith('https://') }));
  // Probes first: no session, no rate limit, no body parsing.
  app.use(healthEndpoints(deps));
  app.use(assetsRouter());
  // PC-07: browser apps on the origin of a registered redirect URL may read the metadata and
  // call the token, revocation and userinfo endpoints; their preflights are answered here,
  // before rate limits and body parsing. PC-08: nothing else is given CORS: sign-in, consent,
  // /oauth/authorize, /oauth/logout and /account/* are for our own pages and the portal only.
  const corsHeaders = ['Authorization', 'Content-Type'];
  // OI-07, OI-08: both metadata documents and the key set, which browser apps verify ID tokens with.
  app.all(
    [DISCOVERY_PATH, OPENID_CONFIGURATION_PATH, JWKS_PATH],
    corsForBrowserApps(deps.db, { methods: ['GET'], allowedHeaders: corsHeaders }),
  );
  app.all([TOKEN_PATH, REVOKE_PATH], corsForBrowserApps(deps.db, { methods: ['POST'], allowedHeaders: corsHeaders }));
  app.all(USERINFO_PATH, corsForBrowserApps(deps.db, { methods: ['GET', 'POST'], allowedHeaders: corsHeaders }));
  app.use(discoveryRouter(deps));
  app.use(jwksRouter(deps));

  // JSON endpoints: their own body parsing and error middleware, no session. The token and
  // revocation endpoints check client secrets alike and share one brute-force allowance.
  const clientAuthLimits = clientAuthRateLimits(deps);
  app.use(tokenRouter(deps, clientAuthLimits));
  app.use(revokeRouter(deps, clientAuthLimits));
  // OI-11: server to server (resource servers), so no CORS; same client authentication and allowance.
  app.use(introspectRouter(deps, clientAuthLimits));
  // DR-*: RFC 7591/7592 registration (off by default), server to server: no CORS.
  app.use(registerRouter(deps));
  // DV-*: RFC 8628 device authorization, server to server like the token endpoint.
  app.use(deviceAuthorizationRouter(deps, clientAuthLimits));
  app.use(userinfoRouter(deps));
  // LK-*: leaked-credential reports, from anyone (secret scanners): no session, no CORS.
  app.use(credentialsRevokeRouter(deps));
  app.use(accountRouter(deps));

  // Browser pages: sessions in the database, loaded only on these routes.
  const session = sessionMiddleware(deps);
  app.use(authorizeRouter(deps, session));
  app.use(logoutRouter(deps, session));
  app.use(consentRouter(deps, session));
  app.use(signInRouter(deps, session));
  app.use(signUpRouter(deps, session));
  app.use(deviceRouter(deps, session));
  app.use(homeRouter(deps, session));

  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return app;
}
