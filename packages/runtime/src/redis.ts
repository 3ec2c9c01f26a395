import { createClient } from 'redis';
import type { Config } from '@latchkey/config';
import type { Logger } from '@latchkey/logging';

export type RedisClient = ReturnType<typeof createClient>;

/**
 * Connects to REDIS_URL when it is set (DESIGN.md D7); undefined otherwise.
 * TODO(issue 4, Redis): command timeouts, no unbounded offline queue, reconnect strategy,
 * error events logged without the URL's password.
 */
export async function connectRedis(config: Config, logger: Logger): Promise<RedisClient | undefined> {
  if (!config.redisUrl) return undefined;
  const client = createClient({ url: config.redisUrl });
  client.on('error', (err: unknown) => logger.warn({ err }, 'redis error'));
  await client.connect();
  return client;
}
