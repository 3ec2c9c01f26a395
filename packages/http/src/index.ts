// The HTTP edge every server shares: the error taxonomy and its one classifier, middleware
// composition, request ids and the request log, the probes, the bearer rule, CORS for browser
// apps and the small header and path checks. Below @latchkey/sessions and @latchkey/process; imports neither.
export { DependencyUnavailableError } from './dependency-unavailable.ts';
export { isDependencyFailure } from './dependency-failure.ts';
export { HttpError } from './http-error.ts';
export { MethodNotAllowed, UnsupportedMediaType } from './edge-errors.ts';
export { classifyError, RETRY_AFTER_SECONDS } from './classify-error.ts';
export type { ErrorKind } from './classify-error.ts';
export { bodyReadError } from './body-read-error.ts';
export type { BodyReadError } from './body-read-error.ts';
export { assignRequestId, withRequestIds } from './request-id.ts';
export { observeRequests, routeTemplateOf, setRequestSubject, setRouteTemplate } from './observe-requests.ts';
export type { ObserveRequestsOptions, RequestSubject } from './observe-requests.ts';
export { healthEndpoints } from './health.ts';
export { isDraining, markDraining } from './draining.ts';
export { noStore, setNoStore } from './no-store.ts';
export { inSequence, runMiddleware } from './middleware.ts';
export type { Middleware } from './middleware.ts';
export { parseBearerAuthorization } from './bearer-authorization.ts';
export type { BearerCredentials } from './bearer-authorization.ts';
export { clientAddressReader, parseTrustProxy } from './trust-proxy.ts';
export { sameOriginPath } from './return-path.ts';
export { corsForBrowserApps, CORS_MAX_AGE_SECONDS } from './cors.ts';
export type { CorsEndpoint } from './cors.ts';
