// The authorization server scaled out: several instances on loopback over one database and
// one Redis (REDIS_URL), as several processes behind a load balancer would be. The system's
// own authorization server (startSystem) stays as it is; the instances are extra ones.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectRedis, type RedisClient } from '@latchkey/runtime';
import { createLogger } from '@latchkey/logging';
import { Writable } from 'node:stream';
import { createAuthApp } from '../../apps/auth/src/app.ts';
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

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startRedisAuth(options: {
  redisUrl: string;
  instances?: number;
  env?: Record<string, string>;
}): Promise<RedisAuth> {
  const system = await startSystem({ REDIS_URL: options.redisUrl, ...options.env });
  const logger = createLogger({
    level: 'debug',
    name: 'auth',
    destination: new Writable({
      write(chunk, _encoding, callback) {
        system.logs.push(...String(chunk).split('\n').filter(Boolean));
        callback();
      },
    }),
  });
  const redis = (await connectRedis(system.config, logger))!;
  const servers: Server[] = [];
  const addInstance = async () => {
    const server = createServer(
      createAuthApp({ config: system.config, db: system.db, clock: system.clock, logger, redis }),
    );
    servers.push(server);
    return listen(server);
  };
  const urls: string[] = [];
  for (let i = 0; i < (options.instances ?? 2); i += 1) urls.push(await addInstance());
  return {
    system,
    redis,
    urls,
    addInstance,
    async close() {
      await Promise.all(
        servers.map(async (server) => {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }),
      );
      await redis.close();
      await system.close();
    },
  };
}
