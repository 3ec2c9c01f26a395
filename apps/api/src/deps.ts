import type { Config } from '@latchkey/config';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';

/** Everything the GraphQL API needs, injected by main.ts or by a test. */
export interface ApiDeps {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
}
