import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Binds every ciphertext to its purpose: a sealed token cannot be replayed as something else.
const AAD = Buffer.from('latchkey-portal-session-token');

/**
 * SECURITY.md §2.12 (TS-03): the session's tokens are encrypted at rest with AES-256-GCM, so
 * a copy of the sessions table alone yields no usable token. The key is derived from
 * SESSION_SECRET with HKDF and never stored next to the data.
 */
export interface TokenSealer {
  seal(plaintext: string): string;
  /** The plaintext, or undefined for anything that does not authenticate under this key. */
  open(sealed: string): string | undefined;
}

export function createTokenSealer(sessionSecret: string): TokenSealer {
  // One KeyObject for the process: building it from raw bytes on every call costs more than the cipher.
  const key = createSecretKey(
    Buffer.from(hkdfSync('sha256', sessionSecret, 'latchkey-bff', 'session token encryption', 32)),
  );
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(AAD);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed) {
      const [version, payload] = sealed.split('.', 2);
      if (version !== VERSION || payload === undefined) return undefined;
      const raw = Buffer.from(payload, 'base64url');
      if (raw.length <= IV_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(AAD);
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
