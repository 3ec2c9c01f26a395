import { blockClientHost, listBlockedClientHosts, normalizeClientHost, unblockClientHost } from '@latchkey/core';
import type { Command } from '../command.ts';
import { parseOptions, requireOption } from '../parse-options.ts';

/** The synopses, kept with the other client commands' in CLIENT_USAGE. */
interface HostUsage {
  block: string;
  unblock: string;
  blocked: string;
}

/**
 * `--host <host>`, checked before the database is opened: a missing flag is a usage error
 * (exit 2); a value that is not a bare host name (a port, path, userinfo, backslash or white
 * space) is refused naming `host` (exit 1, CM-18), like any other bad value.
 */
function hostOf(args: string[], usage: string): string {
  const parsed = parseOptions(args, { host: { type: 'string' } }, usage);
  return normalizeClientHost(requireOption(parsed, 'host', usage));
}

/**
 * CM-17, CM-18: `client block --host`, `client unblock --host` and `client blocked`, the
 * operator's answer to a host whose client ID metadata documents should not be trusted.
 */
export function parseClientHostCommand(
  action: 'block' | 'unblock' | 'blocked',
  args: string[],
  usage: HostUsage,
): Command {
  switch (action) {
    case 'block': {
      const host = hostOf(args, usage.block);
      return {
        // CM-17: its documents are refused from now on, and every client whose id is a document
        // on it is revoked at once, so their tokens stop working (RV-03). Prints those clients.
        run: async (context) => {
          const blocked = await blockClientHost(context.db, context.clock, host);
          return { host: blocked.host, blocked: true, revoked_clients: blocked.revokedClients };
        },
      };
    }
    case 'unblock': {
      const host = hostOf(args, usage.unblock);
      return {
        // The clients the block revoked stay revoked; a new document is fetched on next use.
        run: async (context) => ({ host, blocked: false, was_blocked: await unblockClientHost(context.db, host) }),
      };
    }
    case 'blocked': {
      parseOptions(args, {}, usage.blocked);
      return {
        run: async (context) =>
          (await listBlockedClientHosts(context.db)).map((entry) => ({
            host: entry.host,
            blocked_at: new Date(entry.createdAt).toISOString(),
          })),
      };
    }
  }
}
