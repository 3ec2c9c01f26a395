// The portal scaled out: one authorization server and API (startSystem), and several BFF
// instances on loopback sharing one database and, when given, one Redis (REDIS_URL), as
// several processes behind a load balancer would. A PortalBrowser drives them through
// `view`, whose address can be switched from one instance to another between requests.
import { createServer } from 'node:http';
import type { Logger } from '@latchkey/logging';
import { connectRedis, type RedisClient } from '@latchkey/sessions';
import { createBffApp } from '../../apps/bff/src/app.ts';
import { captureLogger, closeServer, listenOnLoopback } from './loopback.ts';
import { countingFetch, type PortalSystem, type UpstreamCall } from './portal-system.ts';
import { startSystem, type TestSystem } from './system.ts';

export interface RedisPortal {
  system: TestSystem;
  /** The client every BFF instance shares (connectRedis), or undefined without Redis. */
  redis: RedisClient | undefined;
  /** Each instance's base URL. */
  urls: string[];
  /** A PortalSystem for PortalBrowser; its portalUrl is the instance chosen with `use`. */
  view: PortalSystem;
  /** Points `view` (and every browser built on it) at instance `index`. */
  use(index: number): void;
  /** Every OAuth call any instance made (discovery, code, refresh, revocation). */
  upstreamCalls: UpstreamCall[];
  countUpstream(pathSuffix: string, grantType?: string): number;
  close(): Promise<void>;
}

export interface RedisPortalOptions {
  /** REDIS_URL of a running server (test/support/redis.ts); none: sessions in the database. */
  redisUrl?: string;
  /** How many BFF instances; 2 by default. */
  instances?: number;
  /** More configuration (REDIS_TIMEOUT_MS, TOKEN_TTL_SECONDS...). */
  env?: Record<string, string>;
}

export async function startRedisPortal(options: RedisPortalOptions = {}): Promise<RedisPortal> {
  const servers = Array.from({ length: options.instances ?? 2 }, () => createServer());
  const ports: number[] = [];
  for (const server of servers) ports.push(await listenOnLoopback(server));
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  // PORTAL_URL is the first instance: it is the public origin the SPA's requests carry and
  // the redirect URI's; the instances behind it all answer for it.
  const system = await startSystem({
    PORTAL_URL: urls[0]!,
    PORTAL_PORT: String(ports[0]),
    RATE_LIMIT_LOGIN_PER_MINUTE: '10000',
    ...(options.redisUrl === undefined ? {} : { REDIS_URL: options.redisUrl }),
    ...options.env,
  });
  const logger: Logger = captureLogger(system.logs, { name: 'bff' });
  const redis = await connectRedis(system.config, logger);
  const upstreamCalls: UpstreamCall[] = [];
  const countedFetch = countingFetch(upstreamCalls);
  for (const server of servers) {
    server.on(
      'request',
      createBffApp({ config: system.config, db: system.db, clock: system.clock, logger, redis, fetch: countedFetch }),
    );
  }
  const countUpstream = (pathSuffix: string, grantType?: string) =>
    upstreamCalls.filter((c) => c.url.endsWith(pathSuffix) && (grantType === undefined || c.grantType === grantType))
      .length;
  let current = 0;
  const view: PortalSystem = {
    ...system,
    bffLogger: logger,
    get portalUrl() {
      return urls[current]!;
    },
    upstreamCalls,
    countUpstream,
    close: () => Promise.reject(new Error('close the RedisPortal, not its view')),
  };
  return {
    system,
    redis,
    urls,
    view,
    use(index) {
      if (urls[index] === undefined) throw new Error(`no instance ${index}`);
      current = index;
    },
    upstreamCalls,
    countUpstream,
    async close() {
      await Promise.all(servers.map(closeServer));
      await redis?.close();
      await system.close();
    },
  };
}
