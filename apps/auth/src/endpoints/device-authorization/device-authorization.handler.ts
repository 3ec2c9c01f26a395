import type { RequestHandler } from 'express';
import { MAX_RESOURCE_LENGTH } from '@latchkey/contracts';
import { InvalidTarget, resolveResource, startDeviceAuthorization, UnauthorizedClient } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { DEVICE_PATH } from '../../interaction/device/device.router.ts';
import { clientOf } from '../oauth-json/client-auth.middleware.ts';
import { paramsOf, parseParams } from '../oauth-json/oauth-params.ts';
import { checkDeviceScope } from './check-device-scope.ts';
import { presentDeviceAuthorization } from './device-authorization.presenter.ts';
import { deviceAuthorizationParams } from './device-authorization.schema.ts';

/**
 * RFC 8628 §3.1–3.2. DV-09: only a client that opted in to the grant (`unauthorized_client`
 * otherwise). DV-10: `resource` names the Latchkey API or a live resource server (RS-01,
 * `invalid_target`), and `scope` is checked as at /oauth/authorize within it (`invalid_scope`).
 * DV-03: 200 JSON (no-store, like every answer of the router) with both codes, where to enter
 * the user code, 10 minutes and a 5 s interval.
 */
export function startDeviceSignIn(deps: AuthDeps): RequestHandler {
  return async (_req, res) => {
    const client = clientOf(res);
    if (!client.deviceGrant) throw new UnauthorizedClient('This client may not use the device authorization grant.');
    const input = parseParams(deviceAuthorizationParams, paramsOf(res));
    if (input.resource !== undefined && input.resource.length > MAX_RESOURCE_LENGTH) {
      throw new InvalidTarget(`resource must be at most ${MAX_RESOURCE_LENGTH} characters.`);
    }
    const target = await resolveResource(deps.db, deps.config.api.url, input.resource);
    const scopes = checkDeviceScope(client, input.scope, target.server);
    const started = await startDeviceAuthorization(deps.db, deps.clock, { client, scopes, audience: target.audience });
    res.status(200).json(presentDeviceAuthorization(started, `${deps.config.auth.url}${DEVICE_PATH}`));
  };
}
