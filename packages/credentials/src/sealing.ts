import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Authenticated encryption (AES-256-GCM) for values a server hands out or keeps and must get
 * back unread and unaltered: the portal's tokens at rest (TS-03), the authorization server's
 * pending requests held by the browser (HD-06). The key is derived from the server's secret with
 * HKDF and never stored next to the data.
 */
export interface Sealer {
  seal(plaintext: string): string;
  /** The plaintext, or undefined for anything that does not authenticate under this key. */
  open(sealed: string): string | undefined;
}

/**
 * What a key is for. `salt` and `info` separate the derived keys; `aad` binds every ciphertext
 * to its purpose, so a value sealed for one use cannot be replayed as another.
 */
export interface SealPurpose {
  salt: string;
  info: string;
  aad: string;
}

export function createSealer(secret: string, purpose: SealPurpose): Sealer {
  // One KeyObject for the process: building it from raw bytes on every call costs more than the cipher.
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, purpose.salt, purpose.info, 32)));
  const aad = Buffer.from(purpose.aad);
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad);
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
        decipher.setAAD(aad);
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
