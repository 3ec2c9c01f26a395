import type { NextFunction, Request, Response } from 'express';
import {
  deleteDynamicClient,
  readDynamicClient,
  registerDynamicClient,
  ValidationFailed,
  verifyRegistrationToken,
} from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { presentRegisteredClient, presentRegistration, registrationClientUri } from './register.presenter.ts';
import { readRegistrationRequest } from './register.schema.ts';
import { registrationBearer } from './registration-bearer.ts';

/**
 * DR-06: with DYNAMIC_CLIENT_REGISTRATION=token, a registration must carry an initial access
 * token (RFC 7591 §3) made with `registration token create`, neither revoked nor expired;
 * checked before the body is read.
 */
export function requireInitialAccessToken(deps: AuthDeps) {
  return async function checkInitialAccessToken(req: Request, _res: Response, next: NextFunction): Promise<void> {
    const token = registrationBearer(req, 'Registration needs an initial access token from the operator.');
    await verifyRegistrationToken(deps.db, deps.clock, token);
    next();
  };
}

/** DR-05: the body must be JSON (RFC 7591 §3.1); anything else is invalid_client_metadata, unread. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  if (!req.is('application/json')) {
    throw new ValidationFailed('body', 'Send the client metadata as an application/json body.');
  }
  next();
}

function clientUriOf(deps: AuthDeps, registerPath: string, clientId: string): string {
  return registrationClientUri(deps.config.auth.url, registerPath, clientId);
}

export function registerHandlers(deps: AuthDeps, registerPath: string) {
  return {
    /** DR-03, DR-04: POST: registers the client and answers 201 with its metadata and, once, its credentials. */
    async registerClient(req: Request, res: Response): Promise<void> {
      const request = readRegistrationRequest(req.body);
      const registered = await registerDynamicClient(deps.db, deps.clock, request.client);
      const uri = clientUriOf(deps, registerPath, registered.client.id);
      res
        .status(201)
        .json(presentRegistration(registered, uri, request.tokenEndpointAuthMethod, request.applicationType));
    },

    /** DR-11: GET {registration_client_uri} (RFC 7592 §2.1): the metadata, never the secret. */
    async readClient(req: Request, res: Response): Promise<void> {
      const token = registrationBearer(req, 'Send the registration access token in the Authorization header.');
      const client = await readDynamicClient(deps.db, String(req.params.clientId), token);
      res.json(presentRegisteredClient(client, clientUriOf(deps, registerPath, client.id)));
    },

    /** DR-12: DELETE {registration_client_uri} (RFC 7592 §2.3): 204, and the client and all it holds are gone. */
    async deleteClient(req: Request, res: Response): Promise<void> {
      const token = registrationBearer(req, 'Send the registration access token in the Authorization header.');
      await deleteDynamicClient(deps.db, String(req.params.clientId), token);
      res.status(204).end();
    },
  };
}
