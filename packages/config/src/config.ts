import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateToken, randomBase62, TokenPrefix } from '@latchkey/credentials';
import { z } from 'zod';

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));
const url = z
  .string()
  .url()
  .transform((v) => v.replace(/\/+$/, ''));

const ONE_YEAR = 365 * 24 * 60 * 60;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  DATABASE_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  REDIS_TIMEOUT_MS: z.coerce.number().int().min(50).default(2000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  AUTH_PORT: port(4000),
  AUTH_URL: url.optional(),
  API_PORT: port(4001),
  API_URL: url.optional(),
  PORTAL_PORT: port(3000),
  PORTAL_URL: url.optional(),
  SESSION_SECRET: z.string().min(32).optional(),
  PORTAL_CLIENT_ID: z.string().min(1).optional(),
  PORTAL_CLIENT_SECRET: z.string().min(32, 'use at least 32 random characters').optional(),
  TOKEN_TTL_SECONDS: seconds(ONE_YEAR),
  REFRESH_TOKEN_TTL_SECONDS: seconds(ONE_YEAR),
  // DD-4's grace window; 0 turns it off, so every reuse revokes the family (RG-04).
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  EXPIRES_IN_AS_NUMBER: flag(false),
  GRAPHQL_INTROSPECTION: flag(true),
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  RATE_LIMIT_TOKEN_PER_MINUTE: z.coerce.number().int().positive().default(20),
  RATE_LIMIT_LOGIN_PER_MINUTE: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_CREATE_PER_10_MINUTES: z.coerce.number().int().min(1).max(10_000).default(30),
  RATE_LIMIT_CREDENTIALS_REVOKE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  MAX_CLIENTS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(100),
  MAX_TOKENS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(100),
  DEMO_ACCOUNT: flag(true),
  CLIENT_ID_METADATA_DOCUMENTS: z.enum(['on', 'off']).default('on'),
  CIMD_ALLOW_LOOPBACK: flag(false),
  RATE_LIMIT_METADATA_DOCUMENT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
  DYNAMIC_CLIENT_REGISTRATION: z.enum(['off', 'open', 'token']).default('off'),
  RATE_LIMIT_REGISTER_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(20),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  OTEL_EXPORTER_OTLP_ENDPOINT: url.optional(),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  // RE-01, RE-02, RE-06: how long dead rows and security events are kept, and how often each server purges.
  RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  PURGE_INTERVAL_MINUTES: z.coerce.number().int().min(0).max(10_080).default(60),
});

export interface Config {
  readonly env: 'development' | 'production' | 'test';
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  /** PostgreSQL only: the most connections one process opens. */
  readonly databasePoolMax: number;
  /**
   * PostgreSQL only: the longest a query may wait for a connection, and run (statement_timeout);
   * past it the request gets 503 (R-06).
   */
  readonly databaseTimeoutMs: number;
  /** The longest a Redis command (or connecting) may take before the request gets 503 (R-07). */
  readonly redisTimeoutMs: number;
  /** On SIGTERM, how long in-flight requests may take to finish before the process exits (R-13). */
  readonly shutdownTimeoutMs: number;
  readonly auth: { readonly port: number; readonly url: string };
  readonly api: { readonly port: number; readonly url: string };
  readonly portal: {
    readonly port: number;
    readonly url: string;
    readonly clientId: string;
    readonly clientSecret: string;
    readonly redirectUri: string;
    /** Where the end-session endpoint sends the browser after the portal's sign-out. */
    readonly postLogoutRedirectUri: string;
  };
  readonly sessionSecret: string;
  /** Lifetime of PATs and OAuth access tokens (D-3: one year by default). */
  readonly tokenTtlSeconds: number;
  /** Refresh tokens expire after this much inactivity; each rotation starts a new period (RT-11). */
  readonly refreshTokenTtlSeconds: number;
  /**
   * DD-4: a just-rotated refresh token presented again by its client within this many seconds
   * gets a fresh pair on the same grant instead of revoking the family. 0 turns it off.
   */
  readonly refreshReuseGraceSeconds: number;
  /** Authorization codes live 10 minutes (D-3); not configurable. */
  /** D-1: `expires_in` is a digit string unless this is set for strict RFC 6749 clients. */
  readonly expiresInAsNumber: boolean;
  readonly graphqlIntrospection: boolean;
  readonly trustProxy: string | undefined;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  readonly rateLimit: {
    readonly tokenPerMinute: number;
    readonly loginPerMinute: number;
    /** HD-14: clients and tokens one user may create through /account, together, per 10 minutes. */
    readonly createPer10Minutes: number;
    /** LK-05: leak reports one address may send to /credentials/revoke per minute. */
    readonly credentialsRevokePerMinute: number;
  };
  /**
   * HD-14: what one user may hold at once through /account (the operators' CLI is not capped).
   * Clients: not revoked (GitHub's cap on OAuth apps is 100). Tokens: personal access tokens
   * neither revoked nor expired (GitHub allows 50 fine-grained ones, and classic ones without cap).
   */
  readonly limits: { readonly maxClientsPerUser: number; readonly maxTokensPerUser: number };
  readonly demoAccount: boolean;
  /**
   * CM-*: a `client_id` that is an https URL names its client ID metadata document, fetched on
   * first use (CLIENT_ID_METADATA_DOCUMENTS, on by default). `allowLoopback`
   * (CIMD_ALLOW_LOOPBACK, refused in production): documents on loopback addresses, over http
   * too, for local development and tests; every other private address stays refused.
   * `perMinute` (RATE_LIMIT_METADATA_DOCUMENT_PER_MINUTE): authorization requests naming a
   * client by its document's URL that one address may send per minute (CM-21).
   */
  readonly clientIdMetadataDocuments: {
    readonly enabled: boolean;
    readonly allowLoopback: boolean;
    readonly perMinute: number;
  };
  /**
   * DR-*: POST /oauth/register (RFC 7591): `off` (the default: 404), `open` to anyone, or `token`
   * with an initial access token made by `registration token create`. `perHour`: registrations
   * one address may make per hour.
   */
  readonly dynamicClientRegistration: { readonly mode: 'off' | 'open' | 'token'; readonly perHour: number };
  /**
   * OB-*: Prometheus metrics are served on their own listener, `METRICS_HOST` (127.0.0.1 by
   * default) and `METRICS_PORT`, never on a public port; not at all when METRICS_PORT is unset.
   */
  readonly metrics: { readonly port: number | undefined; readonly host: string };
  /**
   * OB-*: OpenTelemetry traces are exported over OTLP/HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT`
   * (`/v1/traces` is appended); off when it is unset. `serviceName`: OTEL_SERVICE_NAME.
   */
  readonly tracing: { readonly endpoint: string | undefined; readonly serviceName: string | undefined };
  /**
   * RE-*: revoked and expired tokens, used and expired codes, decided and expired device
   * authorizations and dead grants are deleted `days` (RETENTION_DAYS, 90) after they stopped
   * mattering; security events `auditDays` (AUDIT_RETENTION_DAYS, 365) after they were written.
   * Every server process purges every `purgeIntervalMinutes` (PURGE_INTERVAL_MINUTES, 60; 0: never,
   * `purge` in the CLI then does it by hand).
   */
  readonly retention: { readonly days: number; readonly auditDays: number; readonly purgeIntervalMinutes: number };
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** As generated below; a file that is not exactly this (cut short, edited) stops the start. */
const localSecrets = z.object({
  sessionSecret: z.string().min(32),
  portalClientId: z.string().min(1),
  portalClientSecret: z.string().min(32),
});
type LocalSecrets = z.infer<typeof localSecrets>;

function readLocalSecrets(file: string): LocalSecrets {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError([
      `${file}: not valid JSON (${err instanceof Error ? err.message : 'unreadable'})`,
      DELETE_HINT,
    ]);
  }
  const parsed = localSecrets.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError([
      ...parsed.error.issues.map((i) => `${file}: ${i.path.join('.') || 'the file'}: ${i.message}`),
      DELETE_HINT,
    ]);
  }
  return parsed.data;
}

const DELETE_HINT =
  'Delete the file to generate new local secrets (everyone signs in again and the portal client gets a new secret), or restore it from a backup.';

/**
 * Outside production, secrets that were not given are generated once and kept in
 * `DATA_DIR/local-secrets.json` (mode 0600) so that restarts keep sessions and the portal client.
 */
function readOrCreateLocalSecrets(dataDir: string, make: () => LocalSecrets): LocalSecrets {
  const file = join(dataDir, 'local-secrets.json');
  if (existsSync(file)) return readLocalSecrets(file);
  mkdirSync(dataDir, { recursive: true });
  const secrets = make();
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}

/**
 * Parses the environment once. Fails with every bad key listed; in production refuses
 * to start without explicit secrets and https URLs (unsafe defaults fail closed).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const authUrl = e.AUTH_URL ?? `http://localhost:${e.AUTH_PORT}`;
  const apiUrl = e.API_URL ?? `http://localhost:${e.API_PORT}`;
  const portalUrl = e.PORTAL_URL ?? `http://localhost:${e.PORTAL_PORT}`;
  const dataDir = resolve(e.DATA_DIR);

  if (production) {
    const problems: string[] = [];
    if (!e.SESSION_SECRET) problems.push('SESSION_SECRET: required in production (32+ characters)');
    if (!e.PORTAL_CLIENT_ID) problems.push('PORTAL_CLIENT_ID: required in production');
    if (!e.PORTAL_CLIENT_SECRET) problems.push('PORTAL_CLIENT_SECRET: required in production');
    for (const [key, value] of [
      ['AUTH_URL', e.AUTH_URL],
      ['API_URL', e.API_URL],
      ['PORTAL_URL', e.PORTAL_URL],
    ] as const) {
      if (!value?.startsWith('https://')) problems.push(`${key}: an https URL is required in production`);
    }
    if (e.CIMD_ALLOW_LOOPBACK) {
      problems.push('CIMD_ALLOW_LOOPBACK: not allowed in production (metadata documents on loopback addresses)');
    }
    if (problems.length > 0) throw new ConfigError(problems);
  }

  const local =
    e.SESSION_SECRET && e.PORTAL_CLIENT_ID && e.PORTAL_CLIENT_SECRET
      ? undefined
      : readOrCreateLocalSecrets(dataDir, () => ({
          sessionSecret: randomBytes(32).toString('base64url'),
          portalClientId: `lkc_${randomBase62(24)}`,
          portalClientSecret: generateToken(TokenPrefix.clientSecret),
        }));

  return Object.freeze({
    env: e.NODE_ENV,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    databaseTimeoutMs: e.DATABASE_TIMEOUT_MS,
    redisTimeoutMs: e.REDIS_TIMEOUT_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    auth: Object.freeze({ port: e.AUTH_PORT, url: authUrl }),
    api: Object.freeze({ port: e.API_PORT, url: apiUrl }),
    portal: Object.freeze({
      port: e.PORTAL_PORT,
      url: portalUrl,
      clientId: e.PORTAL_CLIENT_ID ?? local!.portalClientId,
      clientSecret: e.PORTAL_CLIENT_SECRET ?? local!.portalClientSecret,
      redirectUri: `${portalUrl}/bff/callback`,
      postLogoutRedirectUri: `${portalUrl}/signed-out`,
    }),
    sessionSecret: e.SESSION_SECRET ?? local!.sessionSecret,
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
    refreshReuseGraceSeconds: e.REFRESH_REUSE_GRACE_SECONDS,
    expiresInAsNumber: e.EXPIRES_IN_AS_NUMBER,
    graphqlIntrospection: production ? false : e.GRAPHQL_INTROSPECTION,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    rateLimit: Object.freeze({
      tokenPerMinute: e.RATE_LIMIT_TOKEN_PER_MINUTE,
      loginPerMinute: e.RATE_LIMIT_LOGIN_PER_MINUTE,
      createPer10Minutes: e.RATE_LIMIT_CREATE_PER_10_MINUTES,
      credentialsRevokePerMinute: e.RATE_LIMIT_CREDENTIALS_REVOKE_PER_MINUTE,
    }),
    limits: Object.freeze({
      maxClientsPerUser: e.MAX_CLIENTS_PER_USER,
      maxTokensPerUser: e.MAX_TOKENS_PER_USER,
    }),
    demoAccount: production ? false : e.DEMO_ACCOUNT,
    clientIdMetadataDocuments: Object.freeze({
      enabled: e.CLIENT_ID_METADATA_DOCUMENTS === 'on',
      allowLoopback: e.CIMD_ALLOW_LOOPBACK,
      perMinute: e.RATE_LIMIT_METADATA_DOCUMENT_PER_MINUTE,
    }),
    dynamicClientRegistration: Object.freeze({
      mode: e.DYNAMIC_CLIENT_REGISTRATION,
      perHour: e.RATE_LIMIT_REGISTER_PER_HOUR,
    }),
    metrics: Object.freeze({ port: e.METRICS_PORT, host: e.METRICS_HOST }),
    tracing: Object.freeze({ endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: e.OTEL_SERVICE_NAME }),
    retention: Object.freeze({
      days: e.RETENTION_DAYS,
      auditDays: e.AUDIT_RETENTION_DAYS,
      purgeIntervalMinutes: e.PURGE_INTERVAL_MINUTES,
    }),
  });
}
