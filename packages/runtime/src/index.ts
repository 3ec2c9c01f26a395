export { openDatabase } from './open-database.ts';
export { serve } from './serve.ts';
export type { RunningServer } from './serve.ts';
export { KyselySessionStore } from './session-store.ts';
