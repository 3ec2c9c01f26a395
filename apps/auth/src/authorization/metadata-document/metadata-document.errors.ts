/**
 * Why a client ID metadata document was not accepted (CM-*): `reason` goes to the log, `detail`
 * to the error page. Both are written here, never built from the document or the URL (AC-10).
 */
export const RefusalReason = {
  disabled: 'disabled',
  invalidUrl: 'invalid_url',
  blockedHost: 'blocked_host',
  forbiddenAddress: 'forbidden_address',
  timeout: 'timeout',
  tooLarge: 'too_large',
  redirect: 'redirect',
  httpStatus: 'http_status',
  notJson: 'not_json',
  invalidDocument: 'invalid_document',
  clientIdMismatch: 'client_id_mismatch',
  authMethod: 'token_endpoint_auth_method',
  revoked: 'revoked',
  unreachable: 'unreachable',
} as const;
export type RefusalReason = (typeof RefusalReason)[keyof typeof RefusalReason];

export class MetadataDocumentRefused extends Error {
  readonly reason: RefusalReason;
  readonly detail: string;
  constructor(reason: RefusalReason, detail: string, options?: ErrorOptions) {
    super(`${reason}: ${detail}`, options);
    this.name = 'MetadataDocumentRefused';
    this.reason = reason;
    this.detail = detail;
  }
}
