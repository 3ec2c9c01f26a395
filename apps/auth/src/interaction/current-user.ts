import type { Request } from 'express';
import { findUserById, type User } from '@latchkey/core';
import type { Db } from '@latchkey/db';

/**
 * The signed-in user, read fresh from the database on every request: a deleted user's
 * session stops counting at once (GQ-10b).
 */
export async function currentUser(db: Db, req: Request): Promise<User | undefined> {
  const userId = req.session.userId;
  if (userId === undefined) return undefined;
  const user = await findUserById(db, userId);
  if (!user) {
    delete req.session.userId;
    delete req.session.authenticatedAt;
  }
  return user;
}
