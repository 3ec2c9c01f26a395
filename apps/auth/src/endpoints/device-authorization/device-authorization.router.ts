import type { Router } from 'express';
import type { AuthDeps } from '../../deps.ts';
import { clientAuthenticatedEndpoint } from '../oauth-json/client-authenticated.router.ts';
import { clientAuthRateLimits, type ClientAuthRateLimits } from '../oauth-json/client-auth.rate-limit.ts';
import { startDeviceSignIn } from './device-authorization.handler.ts';
import { DEVICE_AUTHORIZATION_PARAMS } from './device-authorization.schema.ts';

/** RFC 8628 §3.1: where a device starts a sign-in. */
export const DEVICE_AUTHORIZATION_PATH = '/oauth/device_authorization';

/**
 * POST /oauth/device_authorization (RFC 8628 §3.1–3.2), DV-03 and the other DV-* in docs/rules.md: a client that
 * opted in to the grant (public, or confidential with its authentication) gets a device code, a
 * user code and where the user enters it. The checks are the token endpoint's, in its order
 * (clientAuthenticatedEndpoint: no-store, CA-07's limits, form body, allowlisted parameters,
 * client authentication), and RFC 8628 §3.1 requires that a confidential client authenticate
 * here as it does there. `limits`: the token endpoint's, so a secret guessed here counts there.
 */
export function deviceAuthorizationRouter(
  deps: AuthDeps,
  limits: ClientAuthRateLimits = clientAuthRateLimits(deps),
): Router {
  return clientAuthenticatedEndpoint(deps, limits, {
    path: DEVICE_AUTHORIZATION_PATH,
    params: DEVICE_AUTHORIZATION_PARAMS,
    handler: startDeviceSignIn(deps),
  });
}
