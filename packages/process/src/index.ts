// The life of a server process: configuration, database and Redis opened, listening with
// timeouts, and a graceful stop on SIGTERM/SIGINT. The top of the shared packages: uses
// @latchkey/http and @latchkey/sessions.
export { openDatabase } from './open-database.ts';
export { serve } from './serve.ts';
export type { RunningServer } from './serve.ts';
export { runServerProcess } from './server-process.ts';
export type { ServerProcessContext } from './server-process.ts';
export { METRICS_PATH, serveMetrics } from './metrics-server.ts';
export { schedulePurge } from './purge-schedule.ts';
export type { PurgeSchedule, PurgeScheduleOptions } from './purge-schedule.ts';
