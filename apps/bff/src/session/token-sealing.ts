import { createSealer, type Sealer } from '@latchkey/credentials';

/**
 * TS-03: the session's tokens are encrypted at rest with AES-256-GCM, so
 * a copy of the sessions table alone yields no usable token. The key is derived from
 * SESSION_SECRET with HKDF and never stored next to the data.
 */
export type TokenSealer = Sealer;

export function createTokenSealer(sessionSecret: string): TokenSealer {
  return createSealer(sessionSecret, {
    salt: 'latchkey-bff',
    info: 'session token encryption',
    aad: 'latchkey-portal-session-token',
  });
}
