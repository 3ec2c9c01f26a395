import {
  ID_TOKEN_SIGNED_RESPONSE_ALGS,
  SECRET_EXPIRIES,
  type IdTokenSignedResponseAlg,
  type SecretExpiry,
} from '@latchkey/contracts';
import {
  createClient,
  createClientSecret,
  deleteClientSecret,
  listClientSecrets,
  listClients,
  listUsers,
  presentClient as presentAccountClient,
  presentClientSecret,
  presentCreatedClientSecret,
  revokeClient,
  updateClient,
  type Client,
} from '@latchkey/core';
import type { CliContext, Command } from '../command.ts';
import { optionalOption, parseOptions, repeatedOption, requireOption, type ParsedOptions } from '../parse-options.ts';
import { UsageError } from '../usage-error.ts';
import { requireOwner } from '../require-owner.ts';
import { parseClientHostCommand } from './client-hosts.command.ts';

export const CLIENT_USAGE = {
  create:
    'client create --owner <email> --name <name> --redirect-uri <url> [--redirect-uri <url>]... [--post-logout-redirect-uri <url>] [--description <text>] [--homepage <url>] [--privacy-url <url>] [--terms-url <url>] [--id-token-alg RS256|ES256] [--require-pkce] [--public] [--device]',
  update:
    'client update <client_id> [--name <name>] [--redirect-uri <url>]... [--post-logout-redirect-uri <url>] [--description <text>] [--homepage <url>] [--privacy-url <url>] [--terms-url <url>] [--id-token-alg RS256|ES256]',
  list: 'client list [--owner <email>]',
  revoke: 'client revoke <client_id>',
  secretCreate: `client secret create <client_id> [--expires-in ${Object.keys(SECRET_EXPIRIES).join('|')}]`,
  secretList: 'client secret list <client_id>',
  secretDelete: 'client secret delete <client_id> <secret_id>',
  block: 'client block --host <host>',
  unblock: 'client unblock --host <host>',
  blocked: 'client blocked',
} as const;

/**
 * A client as operators see it: the account API's fields (without the `id` alias), `public`
 * among them, and who owns it. Never a secret: `client secret list` shows their last four
 * characters.
 */
function presentClient(client: Client, ownerEmail: string | null) {
  const { id: _id, ...json } = presentAccountClient(client);
  return {
    ...json,
    owner_id: client.ownerId,
    owner_email: ownerEmail,
    first_party: client.firstParty,
    require_pkce: client.requirePkce,
    device_grant: client.deviceGrant,
  };
}

/** The flags create and update share. `--redirect-uri` may repeat; on update it replaces the list (CE-12). */
const CLIENT_FIELDS = {
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  'post-logout-redirect-uri': { type: 'string' },
  description: { type: 'string' },
  homepage: { type: 'string' },
  'privacy-url': { type: 'string' },
  'terms-url': { type: 'string' },
  'id-token-alg': { type: 'string' },
} as const;

/** The details as core takes them; an empty value (`--homepage ''`) clears one on update. */
function detailsOf(parsed: ParsedOptions) {
  return {
    description: optionalOption(parsed, 'description'),
    clientUri: optionalOption(parsed, 'homepage'),
    policyUri: optionalOption(parsed, 'privacy-url'),
    tosUri: optionalOption(parsed, 'terms-url'),
  };
}

/** OI-20: `--id-token-alg RS256|ES256`; any other value is a usage error (exit 2). */
function idTokenAlgOf(parsed: ParsedOptions, usage: string): IdTokenSignedResponseAlg | undefined {
  const value = optionalOption(parsed, 'id-token-alg');
  if (value === undefined || (ID_TOKEN_SIGNED_RESPONSE_ALGS as readonly string[]).includes(value)) {
    return value as IdTokenSignedResponseAlg | undefined;
  }
  throw new UsageError(`--id-token-alg must be ${ID_TOKEN_SIGNED_RESPONSE_ALGS.join(' or ')} (usage: ${usage})`);
}

async function ownerEmails(context: CliContext): Promise<Map<string, string>> {
  return new Map((await listUsers(context.db)).map((user) => [user.id, user.email]));
}

export function parseClientCommand(action: string | undefined, args: string[]): Command {
  switch (action) {
    case 'create': {
      const parsed = parseOptions(
        args,
        {
          owner: { type: 'string' },
          ...CLIENT_FIELDS,
          'require-pkce': { type: 'boolean' },
          public: { type: 'boolean' },
          device: { type: 'boolean' },
        },
        CLIENT_USAGE.create,
      );
      const ownerEmail = requireOption(parsed, 'owner', CLIENT_USAGE.create);
      const name = requireOption(parsed, 'name', CLIENT_USAGE.create);
      const redirectUris = repeatedOption(parsed, 'redirect-uri');
      if (!redirectUris) throw new UsageError(`missing --redirect-uri (usage: ${CLIENT_USAGE.create})`);
      const postLogoutRedirectUri = optionalOption(parsed, 'post-logout-redirect-uri');
      const requirePkce = parsed.values['require-pkce'] === true;
      const isPublic = parsed.values.public === true;
      // DV-23: the client may use the device authorization grant (RFC 8628).
      const deviceGrant = parsed.values.device === true;
      const idTokenAlg = idTokenAlgOf(parsed, CLIENT_USAGE.create);
      return {
        // The secret is printed once here; only its SHA-256 digest is stored (CA-08, TS-01). PC-01:
        // a public client has none, so none is printed.
        run: async (context) => {
          const owner = await requireOwner(context, ownerEmail);
          const created = await createClient(context.db, context.clock, {
            ownerId: owner.id,
            name,
            redirectUris,
            redirectUrisField: redirectUris.length === 1 ? 'redirect_uri' : 'redirect_uris',
            postLogoutRedirectUri,
            ...detailsOf(parsed),
            requirePkce,
            public: isPublic,
            deviceGrant,
            idTokenAlg,
          });
          const { client_id: clientId, ...rest } = presentClient(created.client, owner.email);
          if (created.clientSecret === undefined) return { client_id: clientId, ...rest };
          return { client_id: clientId, client_secret: created.clientSecret, ...rest };
        },
      };
    }
    case 'update': {
      const parsed = parseOptions(args, CLIENT_FIELDS, CLIENT_USAGE.update, 1);
      const [clientId] = parsed.positionals as [string];
      const redirectUris = repeatedOption(parsed, 'redirect-uri');
      const changes = {
        name: optionalOption(parsed, 'name'),
        redirectUris,
        postLogoutRedirectUri: optionalOption(parsed, 'post-logout-redirect-uri'),
        ...detailsOf(parsed),
        idTokenAlg: idTokenAlgOf(parsed, CLIENT_USAGE.update),
      };
      if (Object.values(changes).every((value) => value === undefined)) {
        throw new UsageError(`nothing to change (usage: ${CLIENT_USAGE.update})`);
      }
      return {
        // Effective on the next /oauth/authorize; grants already made stay (issue 19).
        run: async (context) => {
          const client = await updateClient(context.db, clientId, undefined, {
            ...changes,
            redirectUrisField: 'redirect_uris',
          });
          const emails = await ownerEmails(context);
          return presentClient(client, client.ownerId === null ? null : (emails.get(client.ownerId) ?? null));
        },
      };
    }
    case 'list': {
      const parsed = parseOptions(args, { owner: { type: 'string' } }, CLIENT_USAGE.list);
      const ownerEmail = optionalOption(parsed, 'owner');
      return {
        run: async (context) => {
          const owner = ownerEmail === undefined ? undefined : await requireOwner(context, ownerEmail);
          const emails = await ownerEmails(context);
          const clients = await listClients(context.db, owner?.id);
          return clients.map((client) =>
            presentClient(client, client.ownerId === null ? null : (emails.get(client.ownerId) ?? null)),
          );
        },
      };
    }
    case 'revoke': {
      const [clientId] = parseOptions(args, {}, CLIENT_USAGE.revoke, 1).positionals as [string];
      return {
        // Every token the client issued stops working at once, for every user (RV-03).
        run: async (context) => {
          const client = await revokeClient(context.db, context.clock, clientId);
          const emails = await ownerEmails(context);
          return presentClient(client, client.ownerId === null ? null : (emails.get(client.ownerId) ?? null));
        },
      };
    }
    case 'secret': {
      const [secretAction, ...secretArgs] = args;
      return parseSecretCommand(secretAction, secretArgs);
    }
    // CM-17, CM-18: hosts whose client ID metadata documents are refused.
    case 'block':
    case 'unblock':
    case 'blocked':
      return parseClientHostCommand(action, args, CLIENT_USAGE);
    default:
      throw new UsageError(
        `unknown client command ${JSON.stringify(action ?? '')} (expected create, update, list, revoke, secret, block, unblock or blocked)`,
      );
  }
}

function parseExpiresIn(value: string | undefined): SecretExpiry | undefined {
  if (value === undefined || Object.hasOwn(SECRET_EXPIRIES, value)) return value as SecretExpiry | undefined;
  throw new UsageError(
    `--expires-in must be ${Object.keys(SECRET_EXPIRIES).join(', ')} (usage: ${CLIENT_USAGE.secretCreate})`,
  );
}

/**
 * SR-09: `client secret create|list|delete`, the account API's secret routes for operators, with
 * core's rules (SR-02 at most two, SR-04 never the last, SR-08 not a revoked or public client).
 */
function parseSecretCommand(action: string | undefined, args: string[]): Command {
  switch (action) {
    case 'create': {
      const parsed = parseOptions(args, { 'expires-in': { type: 'string' } }, CLIENT_USAGE.secretCreate, 1);
      const [clientId] = parsed.positionals as [string];
      const expiresIn = parseExpiresIn(optionalOption(parsed, 'expires-in'));
      return {
        // SR-01: printed once here; the secret in use keeps working until deleted, or until
        // --expires-in from now (SR-03).
        run: async (context) => {
          const created = await createClientSecret(context.db, context.clock, clientId, undefined, {
            oldSecretExpiresInMs: expiresIn === undefined ? undefined : SECRET_EXPIRIES[expiresIn],
          });
          const { client_secret, ...rest } = presentCreatedClientSecret(created);
          return { client_id: clientId, client_secret, ...rest };
        },
      };
    }
    case 'list': {
      const [clientId] = parseOptions(args, {}, CLIENT_USAGE.secretList, 1).positionals as [string];
      return {
        run: async (context) => (await listClientSecrets(context.db, context.clock, clientId)).map(presentClientSecret),
      };
    }
    case 'delete': {
      const [clientId, secretId] = parseOptions(args, {}, CLIENT_USAGE.secretDelete, 2).positionals as [string, string];
      return {
        // SR-04: the next request with it gets invalid_client; prints the secrets left.
        run: async (context) =>
          (await deleteClientSecret(context.db, context.clock, clientId, secretId)).map(presentClientSecret),
      };
    }
    default:
      throw new UsageError(
        `unknown client secret command ${JSON.stringify(action ?? '')} (expected create, list or delete)`,
      );
  }
}
