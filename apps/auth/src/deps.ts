import type { Config } from '@latchkey/config';
import type { Clock, SigningKeyRing } from '@latchkey/core';
import type { Db } from '@latchkey/db';
import type { Logger } from '@latchkey/logging';
import type { Observability } from '@latchkey/observability';
import type { RedisClient } from '@latchkey/sessions';

/** Everything the authorization server needs, injected by main.ts or by a test. */
export interface AuthDeps {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Set when REDIS_URL is: sessions and rate-limit counters live there (DD-7). */
  redis?: RedisClient | undefined;
  /** OB-*: metrics and traces; the app makes its own (metrics only) when not given. */
  observability?: Observability | undefined;
  /** OI-03: the ID token signing keys; createAuthApp makes one from `db` when not given. */
  signingKeys?: SigningKeyRing | undefined;
  /**
   * CM-*: extra certificate authorities (PEM) trusted when fetching client ID metadata
   * documents, besides the system's: tests serve documents over https on loopback. Operators
   * use NODE_EXTRA_CA_CERTS instead.
   */
  metadataDocumentCa?: string | undefined;
}

/** The app's signing keys (createAuthApp always sets them). */
export function signingKeysOf(deps: AuthDeps): SigningKeyRing {
  if (!deps.signingKeys) throw new Error('createAuthApp sets deps.signingKeys');
  return deps.signingKeys;
}
