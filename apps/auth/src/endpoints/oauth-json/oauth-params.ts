import type { RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { InvalidRequest, InvalidTarget } from '@latchkey/core';

export type OAuthParams = Readonly<Record<string, string | undefined>>;

const PARAMS = 'oauthParams';

/**
 * Builds an endpoint's parameters from its allowlist, reading the form body only: the query
 * string is never a source, so credentials in the URL are not read (OAuth 2.1 §2.4.1, CA-05).
 * - Names outside the allowlist are ignored (OAuth 2.1 §3.2, P-01).
 * - A name sent more than once is refused (OAuth 2.1 §3.1 and §3.2, P-02, TK-06); Express
 *   would otherwise hand the service an array. A repeated `resource` is `invalid_target`: RFC 8707
 *   §2 allows several, but a Latchkey token has one audience (RS-02).
 * - A name sent without a value counts as omitted (OAuth 2.1 §3.1 and §3.2).
 */
export function assembleParams(names: readonly string[]): RequestHandler {
  return (req, res, next) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const params: Record<string, string | undefined> = {};
    for (const name of names) {
      if (!Object.hasOwn(body, name)) continue;
      const value = body[name];
      if (typeof value !== 'string') throw repeated(name);
      if (value !== '') params[name] = value;
    }
    res.locals[PARAMS] = Object.freeze(params);
    next();
  };
}

function repeated(name: string): Error {
  if (name === 'resource') return new InvalidTarget('Only one resource may be requested at a time.');
  return new InvalidRequest(`The ${name} parameter must not be repeated.`);
}

export function paramsOf(res: Response): OAuthParams {
  const params = res.locals[PARAMS] as OAuthParams | undefined;
  if (!params) throw new Error('assembleParams must run before this step');
  return params;
}

/**
 * Validates one grant's or endpoint's parameters. A failure names the parameter (from the
 * schema, never from the input: AC-10).
 */
export function parseParams<T>(schema: z.ZodType<T>, params: OAuthParams): T {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const field = result.error.issues[0]?.path[0];
  throw new InvalidRequest(
    typeof field === 'string' ? `The ${field} parameter is missing or invalid.` : 'The request parameters are invalid.',
  );
}
