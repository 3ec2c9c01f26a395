export { openDatabase } from './open-database.ts';
export { serve } from './serve.ts';
export type { RunningServer } from './serve.ts';
export { KyselySessionStore } from './session-store.ts';
export { requestLogger } from './http/request-logger.ts';
export { isDependencyFailure } from './http/dependency-failure.ts';
export { parseTrustProxy } from './http/trust-proxy.ts';
