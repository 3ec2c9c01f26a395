// The environment every benchmark process loads its configuration from: a production-like
// configuration (introspection and suggestions off) over a temporary data folder, logs off,
// and rate limits out of the way of the code-exchange run.
import { randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '@latchkey/config';

export function benchEnvironment(dataDir: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    AUTH_PORT: '0',
    API_PORT: '0',
    AUTH_URL: 'https://auth.bench.invalid',
    API_URL: 'https://api.bench.invalid',
    PORTAL_URL: 'https://portal.bench.invalid',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    PORTAL_CLIENT_ID: 'lkc_benchportal',
    PORTAL_CLIENT_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_TOKEN_PER_MINUTE: '1000000000',
    RATE_LIMIT_LOGIN_PER_MINUTE: '1000000000',
  };
}

/** In a target process: the configuration the parent described in the environment. */
export function loadBenchConfig(): Config {
  return loadConfig(process.env);
}

/**
 * BENCH_QUICK=1 leaves out the slow parts of `npm run bench` (the one-million-row token
 * tables). The benchmark's own switch, not the servers' configuration.
 */
export function benchQuick(): boolean {
  return process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';
}
