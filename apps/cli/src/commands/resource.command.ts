import { isScope, THIRD_PARTY_SCOPES, type Scope } from '@latchkey/contracts';
import { createResourceServer, listResourceServers, revokeResourceServer, type ResourceServer } from '@latchkey/core';
import type { Command } from '../command.ts';
import { parseOptions, repeatedOption, requireOption } from '../parse-options.ts';
import { UsageError } from '../usage-error.ts';

export const RESOURCE_USAGE = {
  create: `resource create --uri <uri> --name <name> [--scope <${THIRD_PARTY_SCOPES.join('|')}>]...`,
  list: 'resource list',
  revoke: 'resource revoke <id>',
} as const;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** A resource server as operators see it: `id` is its tokens' audience, `uri` what clients send as `resource`. */
function presentResourceServer(server: ResourceServer) {
  return {
    id: server.id,
    uri: server.uri,
    name: server.name,
    scopes: server.scopes,
    status: server.revokedAt === null ? 'active' : 'revoked',
    created_at: iso(server.createdAt),
    revoked_at: iso(server.revokedAt),
  };
}

/** RS-08: `--scope`, repeatable; `profile email` when absent. An unknown name is a usage error; core refuses `openid` and `account`. */
function parseScopes(values: string[] | undefined): Scope[] | undefined {
  const unknown = values?.filter((value) => !isScope(value)) ?? [];
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown scope ${unknown.map((name) => JSON.stringify(name)).join(', ')} (expected ${THIRD_PARTY_SCOPES.join(' or ')}; usage: ${RESOURCE_USAGE.create})`,
    );
  }
  return values as Scope[] | undefined;
}

/**
 * RS-07: the resource servers (RFC 8707) Latchkey mints tokens for beside its own API. Such a
 * server checks a token by introspection (OI-11): active, and `aud` its own URI (RS-10).
 */
export function parseResourceCommand(action: string | undefined, args: string[]): Command {
  switch (action) {
    case 'create': {
      const parsed = parseOptions(
        args,
        { uri: { type: 'string' }, name: { type: 'string' }, scope: { type: 'string', multiple: true } },
        RESOURCE_USAGE.create,
      );
      const uri = requireOption(parsed, 'uri', RESOURCE_USAGE.create);
      const name = requireOption(parsed, 'name', RESOURCE_USAGE.create);
      const scopes = parseScopes(repeatedOption(parsed, 'scope'));
      return {
        // Refused (exit 1): not https (http only on loopback), a fragment or credentials, one of the
        // API's own URIs, or a URI already registered.
        run: async (context) =>
          presentResourceServer(
            await createResourceServer(context.db, context.clock, context.config.api.url, { uri, name, scopes }),
          ),
      };
    }
    case 'list': {
      parseOptions(args, {}, RESOURCE_USAGE.list);
      return { run: async (context) => (await listResourceServers(context.db)).map(presentResourceServer) };
    }
    case 'revoke': {
      const [id] = parseOptions(args, {}, RESOURCE_USAGE.revoke, 1).positionals as [string];
      return {
        // RS-09: its URI is invalid_target and every token issued for it is refused from now on.
        run: async (context) => presentResourceServer(await revokeResourceServer(context.db, context.clock, id)),
      };
    }
    default:
      throw new UsageError(
        `unknown resource command ${JSON.stringify(action ?? '')} (expected create, list or revoke)`,
      );
  }
}
