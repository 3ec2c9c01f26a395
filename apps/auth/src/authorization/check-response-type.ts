import type { AssembledParams } from './authorize-params.ts';
import { AuthorizationError, AuthorizationErrorCode, invalidRequest } from './authorize.errors.ts';

/**
 * Only the authorization code flow exists (the documented interface). The comparison is exact: `CODE`,
 * `code code` and `token` are unsupported (AZ-11); absent or empty is invalid_request (AZ-10).
 */
export function checkResponseType({ params }: AssembledParams): void {
  const responseType = params.response_type;
  if (responseType === undefined) throw invalidRequest('response_type is required.');
  if (responseType !== 'code') {
    throw new AuthorizationError(
      AuthorizationErrorCode.unsupportedResponseType,
      'Only response_type=code is supported.',
    );
  }
}
