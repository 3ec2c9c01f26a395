import {
  createClient,
  listClients,
  listUsers,
  presentClient as presentAccountClient,
  revokeClient,
  updateClient,
  type Client,
} from '@latchkey/core';
import type { CliContext, Command } from '../command.ts';
import { optionalOption, parseOptions, repeatedOption, requireOption, type ParsedOptions } from '../parse-options.ts';
import { UsageError } from '../usage-error.ts';
import { requireOwner } from '../require-owner.ts';

export const CLIENT_USAGE = {
  create:
    'client create --owner <email> --name <name> --redirect-uri <url> [--redirect-uri <url>]... [--post-logout-redirect-uri <url>] [--description <text>] [--homepage <url>] [--privacy-url <url>] [--terms-url <url>] [--require-pkce]',
  update:
    'client update <client_id> [--name <name>] [--redirect-uri <url>]... [--post-logout-redirect-uri <url>] [--description <text>] [--homepage <url>] [--privacy-url <url>] [--terms-url <url>]',
  list: 'client list [--owner <email>]',
  revoke: 'client revoke <client_id>',
} as const;

/**
 * A client as operators see it: the account API's fields (without the `id` alias) and who owns
 * it. Never the secret: only its last four characters.
 */
function presentClient(client: Client, ownerEmail: string | null) {
  const { id: _id, ...json } = presentAccountClient(client);
  return {
    ...json,
    owner_id: client.ownerId,
    owner_email: ownerEmail,
    secret_last4: client.secretLast4,
    first_party: client.firstParty,
    require_pkce: client.requirePkce,
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

async function ownerEmails(context: CliContext): Promise<Map<string, string>> {
  return new Map((await listUsers(context.db)).map((user) => [user.id, user.email]));
}

export function parseClientCommand(action: string | undefined, args: string[]): Command {
  switch (action) {
    case 'create': {
      const parsed = parseOptions(
        args,
        { owner: { type: 'string' }, ...CLIENT_FIELDS, 'require-pkce': { type: 'boolean' } },
        CLIENT_USAGE.create,
      );
      const ownerEmail = requireOption(parsed, 'owner', CLIENT_USAGE.create);
      const name = requireOption(parsed, 'name', CLIENT_USAGE.create);
      const redirectUris = repeatedOption(parsed, 'redirect-uri');
      if (!redirectUris) throw new UsageError(`missing --redirect-uri (usage: ${CLIENT_USAGE.create})`);
      const postLogoutRedirectUri = optionalOption(parsed, 'post-logout-redirect-uri');
      const requirePkce = parsed.values['require-pkce'] === true;
      return {
        // The secret is printed once here; only its SHA-256 digest is stored (CA-08, TS-01).
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
          });
          const { client_id: clientId, ...rest } = presentClient(created.client, owner.email);
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
    default:
      throw new UsageError(
        `unknown client command ${JSON.stringify(action ?? '')} (expected create, update, list or revoke)`,
      );
  }
}
