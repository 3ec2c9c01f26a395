// /readyz with REDIS_URL set: a PING within REDIS_TIMEOUT_MS (capped at 2 s) next to the
// database check; 503 with Retry-After naming redis while it is down or hangs, ready again
// when it returns, without a restart.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@latchkey/config';
import { connectRedis } from '@latchkey/sessions';
import { startSystem, type TestSystem } from '../support/system.ts';
import { startRedisServer, type RedisServer } from '../support/redis.ts';
import { captureLogs, startStandalone } from './support/standalone-servers.ts';

let system: TestSystem;

beforeAll(async () => {
  system = await startSystem();
});
afterAll(async () => {
  await system?.close();
});

/** Nothing in a probe's answer may help an attacker or leak configuration. */
function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\bat .*\.ts|postgres|sqlite|redis:\/\/|ECONN|no such table|relation|password|Error/i);
}

describe('/readyz with Redis configured', () => {
  let redisServer: RedisServer;
  let silent: Server;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    redisServer = await startRedisServer();
    // Accepts connections and never answers: a Redis that hangs.
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await redisServer?.stop();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  async function apiWithRedis(redisUrl: string) {
    const config = loadConfig({ ...configEnv(), REDIS_URL: redisUrl, REDIS_TIMEOUT_MS: '300' });
    const logs = captureLogs();
    const redis = await connectRedis(config, logs.logger);
    const server = await startStandalone('api', {
      config,
      db: system.db,
      clock: system.clock,
      logger: logs.logger,
      redis,
    });
    return {
      url: server.url,
      async close() {
        await server.close();
        await redis?.close();
      },
    };
  }

  /** The shared system's configuration as environment variables (DATA_DIR, DATABASE_URL, ports). */
  function configEnv(): Record<string, string> {
    return {
      NODE_ENV: 'test',
      DATA_DIR: system.dataDir,
      LOG_LEVEL: 'silent',
      ...(system.config.databaseUrl === undefined ? {} : { DATABASE_URL: system.config.databaseUrl }),
    };
  }

  it('PINGs Redis: ready while it answers, 503 naming redis once it is gone, ready again when it returns', async () => {
    const api = await apiWithRedis(redisServer.url);
    try {
      const up = await fetch(`${api.url}/readyz`);
      expect(up.status).toBe(200);
      expect(await up.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });

      await redisServer.stop();
      const started = performance.now();
      const down = await fetch(`${api.url}/readyz`);
      expect(performance.now() - started).toBeLessThan(2_500);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('5');
      const text = await down.text();
      expect(JSON.parse(text)).toMatchObject({ status: 'unavailable', checks: { database: 'ok' } });
      expect(JSON.parse(text).checks.redis).toMatch(/^(unavailable|timeout)$/);
      expectNoInternals(text);
      expect((await fetch(`${api.url}/healthz`)).status).toBe(200);

      await redisServer.restart();
      const deadline = Date.now() + 8_000;
      let status = 0;
      while (Date.now() < deadline && status !== 200) {
        status = (await fetch(`${api.url}/readyz`)).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it('a Redis that accepts connections but never answers: 503 within the check timeout, not a hang', async () => {
    const { port } = silent.address() as AddressInfo;
    const api = await apiWithRedis(`redis://:hunter2secret@127.0.0.1:${port}`);
    try {
      const started = performance.now();
      const answer = await fetch(`${api.url}/readyz`);
      expect(performance.now() - started).toBeLessThan(1_500);
      expect(answer.status).toBe(503);
      const text = await answer.text();
      expect(JSON.parse(text).checks.redis).toMatch(/^(unavailable|timeout)$/);
      expect(text).not.toContain('hunter2secret');
      expectNoInternals(text);
    } finally {
      await api.close();
    }
  });
});
