export { openDatabase } from './open-database.ts';
export { openInfrastructure } from './infrastructure.ts';
export type { Infrastructure } from './infrastructure.ts';
export { connectRedis, createRedisClient, redisFailure, redactRedisUrl } from './redis.ts';
export type { RedisClient, RedisClientOptions } from './redis.ts';
export { redisHealth } from './sessions/redis-health.ts';
export type { RedisHealth } from './sessions/redis-health.ts';
export type { RedisSessionStoreOptions } from './session-store.ts';
export { DependencyUnavailableError } from './dependency-unavailable.ts';
export { serve } from './serve.ts';
export type { RunningServer } from './serve.ts';
export { KyselySessionStore, RedisSessionStore } from './session-store.ts';
export { requestLogger } from './http/request-logger.ts';
export { isDependencyFailure } from './http/dependency-failure.ts';
export { parseTrustProxy } from './http/trust-proxy.ts';
export type { ServeOptions } from './serve.ts';
export type { InfrastructureOptions } from './infrastructure.ts';
export {
  assignRequestId,
  currentRequestId,
  requestIdOf,
  withRequestIds,
  REQUEST_ID_HEADER,
} from './http/request-id.ts';
export { healthEndpoints, HEALTH_PATH, READY_PATH } from './http/health.ts';
export type { HealthEndpoints, HealthOptions, CheckOutcome } from './http/health.ts';
export { stopGracefullyOnSignals } from './http/graceful-shutdown.ts';
export type { GracefulShutdownOptions } from './http/graceful-shutdown.ts';
export { runServerProcess } from './http/server-process.ts';
export type { ServerProcessContext, ServerProcessOptions } from './http/server-process.ts';
