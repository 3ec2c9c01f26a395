import type { Config } from '@latchkey/config';
import type { Clock } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';
import type { Observability } from '@latchkey/observability';
import type { RedisClient } from '@latchkey/sessions';

/** Everything the backend-for-frontend needs, injected by main.ts or by a test. */
export interface BffDeps {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Set when REDIS_URL is: sessions and rate-limit counters live there (DD-7). */
  redis?: RedisClient | undefined;
  /** OB-*: metrics and traces; the app makes its own (metrics only) when not given. */
  observability?: Observability | undefined;
  /**
   * The fetch openid-client uses for the OAuth calls (discovery, code exchange, refresh,
   * revocation). Tests pass a counting wrapper around the real one, or one that fails.
   */
  fetch?: typeof fetch;
  /** Told of every proxied call before it is made (tests count upstream calls with it). */
  observeUpstream?: (call: { method: string; url: string }) => void;
  /** Upstream time limit; 10 s unless a test shortens it. */
  upstreamTimeoutMs?: number;
  /** The built SPA; apps/portal/dist unless a test points elsewhere. */
  portalDist?: string;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;
