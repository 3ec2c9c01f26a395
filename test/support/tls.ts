// A self-signed certificate made at test time with `openssl`, for servers the tests run over
// https on loopback (client ID metadata documents, issue 32). Nothing is checked in: the key
// lives in a temporary folder for the run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificate {
  /** PEM; also the CA to trust, as the certificate signs itself. */
  cert: string;
  key: string;
}

/** An elliptic-curve (prime256v1) certificate for `localhost` and 127.0.0.1, valid for a day. */
export function makeSelfSignedCertificate(): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'latchkey-tls-'));
  try {
    const keyPath = join(dir, 'key.pem');
    const certPath = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
