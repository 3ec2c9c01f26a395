import type { Config } from '@latchkey/config';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';
import type { Observability } from '@latchkey/observability';
import type { RedisClient } from '@latchkey/sessions';

/** Everything the GraphQL API needs, injected by main.ts or by a test. */
export interface ApiDeps {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Set when REDIS_URL is: sessions and rate-limit counters live there (DD-7). */
  redis?: RedisClient | undefined;
  /** OB-*: metrics and traces; the app makes its own (metrics only) when not given. */
  observability?: Observability | undefined;
  /** How often last-used times are written (default 5 s); a test that reads them sets it out of reach. */
  lastUsedFlushMs?: number | undefined;
}
