// The authorization server scaled out: several instances on loopback over one database and
// one Redis (REDIS_URL), as several processes behind a load balancer would be. The system's
// own authorization server (startSystem) stays as it is; the instances are extra ones.
import { createServer, type Server } from 'node:http';
import { connectRedis, type RedisClient } from '@latchkey/sessions';
import { createAuthApp } from '../../apps/auth/src/app.ts';
import { captureLogger, closeServer, listenOnLoopback } from './loopback.ts';
import { startSystem, type TestSystem } from './system.ts';

export interface RedisAuth {
  system: TestSystem;
  /** The client all instances share. */
  redis: RedisClient;
  /** Each instance's base URL. */
  urls: string[];
  /** Another instance on the same database and Redis, e.g. one created while Redis is down. */
  addInstance(): Promise<string>;
  close(): Promise<void>;
}

export async function startRedisAuth(options: {
  redisUrl: string;
  instances?: number;
  env?: Record<string, string>;
}): Promise<RedisAuth> {
  const system = await startSystem({ REDIS_URL: options.redisUrl, ...options.env });
  const logger = captureLogger(system.logs, { name: 'auth' });
  const redis = (await connectRedis(system.config, logger))!;
  const servers: Server[] = [];
  const addInstance = async () => {
    const server = createServer(
      createAuthApp({ config: system.config, db: system.db, clock: system.clock, logger, redis }),
    );
    servers.push(server);
    return `http://127.0.0.1:${await listenOnLoopback(server)}`;
  };
  const urls: string[] = [];
  for (let i = 0; i < (options.instances ?? 2); i += 1) urls.push(await addInstance());
  return {
    system,
    redis,
    urls,
    addInstance,
    async close() {
      await Promise.all(servers.map(closeServer));
      await redis.close();
      await system.close();
    },
  };
}
