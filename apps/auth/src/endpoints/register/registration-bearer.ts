import type { Request } from 'express';
import { parseBearerAuthorization } from '@latchkey/http';
import { MalformedRegistrationAuthorization, MissingRegistrationToken } from './register.errors.ts';

/**
 * The bearer token of a registration request (RFC 7591 §3 initial access token, RFC 7592 §2
 * registration access token), from the Authorization header only, with the API's strictness
 * (parseBearerAuthorization: one header, RFC 6750's grammar).
 */
export function registrationBearer(req: Request, missing: string): string {
  const credentials = parseBearerAuthorization(req);
  if (credentials.kind === 'none') throw new MissingRegistrationToken(missing);
  if (credentials.kind === 'malformed') throw new MalformedRegistrationAuthorization(credentials.reason);
  return credentials.token;
}
