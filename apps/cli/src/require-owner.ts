import { NotFound, requireUserByEmail, type User } from '@latchkey/core';
import type { CliContext } from './command.ts';

/** The user an `--owner <email>` names, with an error that repeats what the operator typed. */
export async function requireOwner(context: CliContext, email: string): Promise<User> {
  try {
    return await requireUserByEmail(context.db, email);
  } catch (err) {
    if (err instanceof NotFound) throw new NotFound(`no user with email ${JSON.stringify(email)}`, { cause: err });
    throw err;
  }
}
