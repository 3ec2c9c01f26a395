// What the apps, scripts and tests use; the rest of the package is internal to it.
export { openDatabase } from './open-database.ts';
export { connectRedis } from './redis.ts';
export type { RedisClient } from './redis.ts';
export { DependencyUnavailableError } from './dependency-unavailable.ts';
export { serve } from './serve.ts';
export type { RunningServer } from './serve.ts';
export { runServerProcess } from './http/server-process.ts';
export { KyselySessionStore, RedisSessionStore } from './session-store.ts';
export { requireLoadedSession } from './sessions/require-loaded-session.ts';
export { assignRequestId, withRequestIds } from './http/request-id.ts';
export { requestLogger } from './http/request-logger.ts';
export { healthEndpoints } from './http/health.ts';
export { isDependencyFailure } from './http/dependency-failure.ts';
export { HttpError } from './http/http-error.ts';
export { bodyReadError } from './http/body-read-error.ts';
export type { BodyReadError } from './http/body-read-error.ts';
export { parseTrustProxy } from './http/trust-proxy.ts';
export { sameOriginPath } from './http/return-path.ts';
