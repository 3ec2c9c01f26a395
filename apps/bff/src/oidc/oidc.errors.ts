/**
 * The authorization server answered an OAuth request with an RFC 6749 §5.2 error
 * (`invalid_grant`, `invalid_client`...). Network failures are not this: they are
 * UpstreamUnavailable / UpstreamTimeout.
 */
export class GrantRejected extends Error {
  readonly oauthError: string;
  constructor(oauthError: string, options?: { cause?: unknown }) {
    super(`The authorization server answered ${oauthError}.`, options);
    this.name = 'GrantRejected';
    this.oauthError = oauthError;
  }
}
