import type { Config } from '@latchkey/config';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';
import type { RedisClient } from '@latchkey/sessions';

/** Everything the authorization server needs, injected by main.ts or by a test. */
export interface AuthDeps {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Set when REDIS_URL is: sessions and rate-limit counters live there (DD-7). */
  redis?: RedisClient | undefined;
}
