import type { Request, Response } from 'express';
import { SECRET_EXPIRIES, type ClientSecretJson } from '@latchkey/contracts';
import {
  createClientSecret,
  deleteClientSecret,
  listClientSecrets,
  ValidationFailed,
  type ClientSecret,
} from '@latchkey/core';
import type { AuthDeps } from '../../deps.ts';
import { principalOf } from '../require-portal-token.middleware.ts';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** SR-05: a secret as listed: never the secret, only its last four characters. */
export function presentClientSecret(secret: ClientSecret): ClientSecretJson {
  return {
    id: secret.id,
    last4: secret.last4,
    created_at: iso(secret.createdAt)!,
    expires_at: iso(secret.expiresAt),
    last_used_at: iso(secret.lastUsedAt),
  };
}

/** SR-03: when the secret in use now stops working: one of SECRET_EXPIRIES, or absent (until deleted). */
function oldSecretExpiry(body: unknown): number | undefined {
  const value = (body as { old_secret_expires_in?: unknown } | undefined)?.old_secret_expires_in;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !Object.hasOwn(SECRET_EXPIRIES, value)) {
    throw new ValidationFailed(
      'old_secret_expires_in',
      `old_secret_expires_in must be one of ${Object.keys(SECRET_EXPIRIES).join(', ')}, or left out to keep the old secret until you delete it.`,
    );
  }
  return SECRET_EXPIRIES[value as keyof typeof SECRET_EXPIRIES];
}

export function clientSecretsHandlers(deps: AuthDeps) {
  return {
    /** GET /account/clients/:id/secrets (SR-05). */
    async listSecrets(req: Request, res: Response): Promise<void> {
      const secrets = await listClientSecrets(deps.db, deps.clock, String(req.params.id), principalOf(res).userId);
      res.json(secrets.map(presentClientSecret));
    },

    /** POST /account/clients/:id/secrets: a new secret, in this answer only (SR-01, SR-02, SR-03). */
    async createSecret(req: Request, res: Response): Promise<void> {
      const created = await createClientSecret(deps.db, deps.clock, String(req.params.id), principalOf(res).userId, {
        oldSecretExpiresInMs: oldSecretExpiry(req.body),
      });
      res.status(201).json({
        secret: presentClientSecret(created.secret),
        client_secret: created.clientSecret,
        secrets: created.secrets.map(presentClientSecret),
      });
    },

    /** POST /account/clients/:id/secrets/:secretId/delete (SR-04): the secrets left. */
    async deleteSecret(req: Request, res: Response): Promise<void> {
      const left = await deleteClientSecret(
        deps.db,
        deps.clock,
        String(req.params.id),
        String(req.params.secretId),
        principalOf(res).userId,
      );
      res.json(left.map(presentClientSecret));
    },
  };
}
