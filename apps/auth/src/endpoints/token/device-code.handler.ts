import { pollDeviceAuthorization, UnauthorizedClient, type Client } from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { parseParams, type OAuthParams } from '../oauth-json/oauth-params.ts';
import type { IssuedTokens } from './id-token.ts';
import { deviceCodeParams } from './token.schema.ts';

/**
 * `grant_type=urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 §3.4–3.5). DV-09: only a
 * client that opted in to the grant, checked before the code is read. Core owns the rest: whose
 * code it is, `authorization_pending`, `slow_down` and the growing interval, `access_denied`,
 * `expired_token`, and redemption exactly once (DV-05..DV-08).
 */
export async function exchangeDeviceCode(deps: AuthDeps, client: Client, params: OAuthParams): Promise<IssuedTokens> {
  if (!client.deviceGrant) throw new UnauthorizedClient('This client may not use the device authorization grant.');
  const input = parseParams(deviceCodeParams, params);
  return pollDeviceAuthorization(deps.db, deps.clock, {
    client,
    deviceCode: input.device_code,
    lifetimes: deps.config,
  });
}
