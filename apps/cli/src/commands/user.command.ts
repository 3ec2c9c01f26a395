import { createUser, deleteUser, listUsers, type User } from '@latchkey/core';
import type { Command } from '../command.ts';
import { parseOptions, requireOption } from '../parse-options.ts';
import { requireOwner } from '../require-owner.ts';
import { UsageError } from '../usage-error.ts';

export const USER_USAGE = {
  create: 'user create --email <email> --password <password> --name <name>',
  list: 'user list',
  delete: 'user delete <email>',
} as const;

export function presentUser(user: User) {
  return { id: user.id, email: user.email, name: user.name, created_at: new Date(user.createdAt).toISOString() };
}

export function parseUserCommand(action: string | undefined, args: string[]): Command {
  switch (action) {
    case 'create': {
      const parsed = parseOptions(
        args,
        { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
        USER_USAGE.create,
      );
      const input = {
        email: requireOption(parsed, 'email', USER_USAGE.create),
        password: requireOption(parsed, 'password', USER_USAGE.create),
        name: requireOption(parsed, 'name', USER_USAGE.create),
      };
      return { run: async ({ db, clock }) => presentUser(await createUser(db, clock, input)) };
    }
    case 'list': {
      parseOptions(args, {}, USER_USAGE.list);
      return { run: async ({ db }) => (await listUsers(db)).map(presentUser) };
    }
    case 'delete': {
      const [email] = parseOptions(args, {}, USER_USAGE.delete, 1).positionals as [string];
      return {
        // Deleting a user cascades to their clients, grants and tokens, which stop working at once (GQ-10b).
        run: async (context) => {
          const user = await requireOwner(context, email);
          await deleteUser(context.db, user.id);
          return { deleted: true, ...presentUser(user) };
        },
      };
    }
    default:
      throw new UsageError(`unknown user command ${JSON.stringify(action ?? '')} (expected create, list or delete)`);
  }
}
