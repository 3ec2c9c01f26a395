// Sessions and Redis: the guarded Redis client and its health, the two express-session stores
// (database, Redis) and express-session's calls as promises. Uses @latchkey/http's error
// taxonomy; never @latchkey/process.
export { connectRedis, redisHealth } from './redis.ts';
export type { RedisClient } from './redis.ts';
export { KyselySessionStore, RedisSessionStore } from './session-store.ts';
export { requireLoadedSession } from './require-loaded-session.ts';
export { destroySession, regenerateSession, saveSession } from './session-calls.ts';
