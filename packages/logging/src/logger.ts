import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * Field names whose values are secrets wherever they appear in a log record
 * (RF-04). Request logs never include query strings or bodies in the first place;
 * this is the second line of defence.
 */
const SECRET_KEYS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'client_secret',
  'clientSecret',
  'code',
  'code_verifier',
  'codeVerifier',
  'refresh_token',
  'refreshToken',
  'access_token',
  'accessToken',
  'token',
];

export interface LoggerOptions {
  level: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Where JSON lines go; stdout by default. Tests pass a stream to capture them (RF-04). */
  destination?: DestinationStream;
  name?: string;
}

export function createLogger(options: LoggerOptions): Logger {
  // Two levels deep: `*.*.key` paths cost ~25 µs per line in pino's redactor, for no field we log.
  const paths = SECRET_KEYS.flatMap((key) => [key, `*.${key}`]);
  return pino(
    {
      level: options.level,
      name: options.name,
      redact: { paths, censor: '[redacted]' },
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
