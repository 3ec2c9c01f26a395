import { Counter, Histogram, Registry } from 'prom-client';

/** OB-*: the servers' names in the `server` label (one process may run all three: `npm start`). */
export type ServerName = 'auth' | 'api' | 'bff';

/** Why a bearer token was refused, or that it was accepted. */
export type TokenCheckOutcome = 'ok' | 'invalid' | 'expired' | 'revoked' | 'unavailable';

/**
 * The Prometheus series every server process exposes (OB-*). Every label takes a bounded set of
 * values: route templates (never a path with an id in it), status codes, outcomes, grant types.
 * No label ever carries a token, an email, a client id or any other value a caller chooses (OB-07).
 */
export interface Metrics {
  readonly registry: Registry;
  /** Requests by server, method, route template and status, with their latency. */
  readonly httpRequestDuration: Histogram<'server' | 'method' | 'route' | 'status'>;
  /** Bearer token checks at the API (and /account, /oauth/userinfo) by outcome. */
  readonly tokenChecks: Counter<'outcome'>;
  /** Token endpoint requests by grant type and outcome (`ok` or the OAuth error code). */
  readonly grants: Counter<'grant_type' | 'outcome'>;
  /** Sign-in attempts by outcome (`ok`, `invalid_credentials`, `rate_limited`, ...). */
  readonly signIns: Counter<'outcome'>;
  /** Requests refused by a rate limit, by the limit's name. */
  readonly rateLimited: Counter<'limit'>;
}

/** Latency buckets in seconds: most answers take a millisecond or two, a slow one seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * A fresh registry with the request, token, grant, sign-in and rate-limit series. One per
 * process (runServerProcess) and one per test system, so tests never share counters.
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'latchkey_http_request_duration_seconds',
      help: 'HTTP requests by server, method, route template and status, with their duration.',
      labelNames: ['server', 'method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    tokenChecks: new Counter({
      name: 'latchkey_token_checks_total',
      help: 'Bearer token checks by outcome: ok, invalid, expired, revoked, unavailable.',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    grants: new Counter({
      name: 'latchkey_token_grants_total',
      help: 'Token endpoint requests by grant type and outcome (ok or the OAuth error code).',
      labelNames: ['grant_type', 'outcome'],
      registers: [registry],
    }),
    signIns: new Counter({
      name: 'latchkey_sign_ins_total',
      help: 'Sign-in attempts by outcome.',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'latchkey_rate_limited_total',
      help: 'Requests refused by a rate limit, by limit.',
      labelNames: ['limit'],
      registers: [registry],
    }),
  };
}
