import type { Scope } from '@latchkey/contracts';
import { InvalidScope, type Client, type ResourceServer } from '@latchkey/core';
import { AuthorizationError } from '../../authorization/authorize.errors.ts';
import { checkScope } from '../../authorization/check-scope.ts';

/**
 * DV-10: the scopes a device asks for, by the authorization endpoint's own rule (SC-02, SC-03,
 * OI-01, RS-08 in check-scope.ts, so the rule is written once); its refusal, which there goes
 * to a redirect URI, is here the RFC 6749 §5.2 JSON `invalid_scope` (RFC 8628 §3.2).
 */
export function checkDeviceScope(client: Client, scope: string | undefined, server?: ResourceServer): Scope[] {
  try {
    return checkScope(client, { params: scope === undefined ? {} : { scope }, duplicates: new Set() }, server);
  } catch (err) {
    if (err instanceof AuthorizationError) throw new InvalidScope(err.description, { cause: err });
    throw err;
  }
}
