/** Why a request body could not be read, as every surface answers it in its own shape. */
export interface BodyReadError {
  /** 413 too large, 415 an encoding or charset this server does not read, else 400. */
  status: 400 | 413 | 415;
}

/**
 * The one classifier of body-reading failures for every server (issue 15, HD-02). body-parser
 * raises http-errors and Express's router a plain error, each with a 4xx `status` (our own
 * errors are classes each surface handles before this). Most also carry a `type`
 * (`entity.too.large`, `entity.parse.failed`, `encoding.unsupported`), but a body that is not
 * in its declared Content-Encoding fails inside zlib (Z_DATA_ERROR, Z_BUF_ERROR) and has no
 * `type`: keyed on `type`, it came out as a 500 with a stack trace. The error's message may
 * echo the input, so only the status is kept.
 */
export function bodyReadError(err: unknown): BodyReadError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { status } = err as { status?: unknown };
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  if (status === 413 || status === 415) return { status };
  return { status: 400 };
}
