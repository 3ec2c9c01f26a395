export { systemClock, ManualClock } from './clock.ts';
export type { Clock } from './clock.ts';
export * from './errors.ts';
export { newId, IdPrefix } from './ids.ts';

export type { User } from './users/user.ts';
export {
  createUser,
  authenticateUser,
  findUserById,
  findUserByEmail,
  requireUserByEmail,
  listUsers,
  deleteUser,
  normalizeEmail,
  findNewUserErrors,
} from './users/users.service.ts';
export { PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH } from './users/password-policy.ts';
export type { NewUser } from './users/users.service.ts';

export type { Client } from './clients/client.ts';
export {
  createClient,
  authenticateClient,
  findActiveClient,
  findClient,
  listClients,
  revokeClient,
  updateClient,
  ensureFirstPartyClient,
  authenticatePublicClient,
} from './clients/clients.service.ts';
export { createClientSecret, deleteClientSecret, listClientSecrets } from './clients/client-secrets.service.ts';
export type { ClientSecret, CreatedClientSecret } from './clients/client-secrets.service.ts';
export { isAllowedCorsOrigin } from './clients/cors-origins.ts';
export type { ClientChanges, NewClient, CreatedClient, FirstPartyClient } from './clients/clients.service.ts';
export { validateRedirectUriForRegistration, redirectUriMatches } from './clients/redirect-uri.ts';
export { presentClient, presentClientSecret, presentCreatedClientSecret } from './clients/client.presenter.ts';
export type { ClientRegistration } from './clients/client.ts';
export * from './clients/blocked-hosts.ts';
export * from './clients/metadata-document-clients.ts';
export * from './clients/dynamic-clients.service.ts';
export * from './clients/registration-tokens.service.ts';
export * from './device/device-authorizations.service.ts';

export { consentedScopes, hasConsented, recordConsent } from './authorization/consents.service.ts';
export { listAuthorizedApplications, revokeApplicationAccess } from './authorization/applications.service.ts';
export {
  issueAuthorizationCode,
  redeemAuthorizationCode,
  revokeGrantsOfCodes,
  CODE_TTL_MS,
} from './authorization/codes.service.ts';
export type { CodeRequest, CodeRedemption, RedeemedCode } from './authorization/codes.service.ts';
export { isValidPkceValue, s256, verifierMatchesChallenge } from './authorization/pkce.ts';

export type { Principal, TokenPair, TokenSummary, TokenStatus } from './tokens/token.ts';
export type { TokenLifetimes } from './tokens/issue-token-pair.ts';
export {
  authenticateAccessToken,
  createPersonalAccessToken,
  listTokensForUser,
  listAllTokens,
  revokeAccessToken,
} from './tokens/access-tokens.service.ts';
export type { NewPersonalAccessToken, CreatedPersonalAccessToken } from './tokens/access-tokens.service.ts';
export { refreshTokens } from './tokens/refresh.service.ts';
export { revokeTokenForClient } from './tokens/revocation.service.ts';
export { introspectAccessToken } from './tokens/introspection.service.ts';
export type { ActiveToken } from './tokens/introspection.service.ts';
export { presentAdminToken, presentCreatedToken, presentToken } from './tokens/token.presenter.ts';
export { LastUsedRecorder, MAX_USER_AGENT_LENGTH } from './tokens/last-used.ts';
export { rollPersonalAccessToken, updatePersonalAccessToken } from './tokens/token-changes.service.ts';
export type { RolledPersonalAccessToken, TokenDetailsChange } from './tokens/token-changes.service.ts';
export { provisionPortalClient, PORTAL_CLIENT_NAME } from './provisioning/portal-client.ts';

export {
  ensureSigningKeys,
  rotateSigningKeys,
  listSigningKeys,
  SigningKeyRing,
  ID_TOKEN_ALGS,
  ID_TOKEN_TTL_MS,
  DEFAULT_ROTATION_DELAY_MS,
  signingKeySealer,
} from './oidc/signing-keys.service.ts';
export type { IdTokenAlg, IdTokenHint, SigningKeyInfo } from './oidc/signing-keys.service.ts';
export { accessTokenHash } from './oidc/id-token.ts';
export {
  LATCHKEY_API_TARGET,
  normaliseResourceIndicator,
  resolveResource,
  toResourceServer,
} from './resources/resource-server.ts';
export type { ResourceServer, ResourceTarget } from './resources/resource-server.ts';
export {
  createResourceServer,
  listResourceServers,
  revokeResourceServer,
} from './resources/resource-server-admin.service.ts';
export type { NewResourceServer } from './resources/resource-server-admin.service.ts';
export {
  actorOrDefault,
  inTransaction,
  listSecurityEvents,
  OPERATOR,
  presentSecurityEvent,
  recordActorEvent,
  recordSecurityEvent,
} from './audit/security-events.ts';
export type { AuditActor, NewSecurityEvent, RequestOrigin, SecurityEventFilter } from './audit/security-events.ts';
export { revokeReportedCredentials } from './leaks/revoke-reported.service.ts';
export { purgeExpiredData, DEFAULT_PURGE_BATCH_SIZE, PURGE_LEASE_KEY } from './retention/retention.service.ts';
export { PURGE_KINDS } from './retention/retention.ts';
export type { PurgeCounts, PurgeKind, PurgeOptions, PurgeResult } from './retention/retention.ts';
export { pruneLeases, releaseLease, renewLease, takeLease } from './locks/leases.repository.ts';
