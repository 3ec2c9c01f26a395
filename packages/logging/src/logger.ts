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

/** The access logger made for a logger (accessLogger), kept so each logger has one. */
const ACCESS = Symbol('latchkey.accessLogger');
type WithAccess = Logger & { [ACCESS]?: Logger };

/**
 * The process's logger: JSON lines, ISO times, secrets redacted (RF-04). Lines go to stdout
 * through pino's asynchronous destination (a buffer written in batches, not a write per line),
 * which pino flushes synchronously when the process exits, so a graceful stop loses no line (OB-20).
 */
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

/**
 * OB-19: a sibling of `logger` for the one line per request, whose fields are fixed and built
 * from values that are never secret (request id, method, the path without its query, status,
 * duration): the same destination, level and name, without the redactor, which cost about 10 µs
 * of CPU per line, two thirds of the line (measured on issue 34's bench). Every other line keeps
 * the redaction.
 */
export function accessLogger(logger: Logger): Logger {
  const own = logger as WithAccess;
  if (own[ACCESS] !== undefined) return own[ACCESS];
  const stream = (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym]!;
  const name = (logger.bindings() as { name?: string }).name;
  const access = pino({ level: logger.level, name, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, stream);
  own[ACCESS] = access;
  return access;
}
