import type { Executor } from '@latchkey/db';
import type { Clock } from '../clock.ts';
import { Conflict, InvalidCredentials, NotFound, ValidationFailed } from '../errors.ts';
import { IdPrefix, newId } from '../ids.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password.ts';
import { userRowToUser, type User } from './user.ts';
import { deleteUserRow, findUserRowByEmail, findUserRowById, insertUser, listUserRows } from './users.repository.ts';
import { hasControlCharacters, validateName } from '../text.ts';
import { checkPassword } from './password-policy.ts';
import { recordSecurityEvent, type RequestOrigin } from '../audit/security-events.ts';

export interface NewUser {
  email: string;
  password: string;
  name: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

async function validateNewUser(input: NewUser): Promise<NewUser> {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email) || email.length > 254 || hasControlCharacters(email))
    throw new ValidationFailed('email', 'Enter a valid email address.');
  const name = validateName(input.name, 'name');
  return { email, name, password: await checkPassword(input.password, { email, name }) };
}

export async function createUser(db: Executor, clock: Clock, input: NewUser): Promise<User> {
  const valid = await validateNewUser(input);
  if (await findUserRowByEmail(db, valid.email)) {
    throw new Conflict('An account with this email already exists.');
  }
  const row = {
    id: newId(IdPrefix.user),
    email: valid.email,
    name: valid.name,
    password_hash: await hashPassword(valid.password),
    created_at: clock.now(),
  };
  try {
    await insertUser(db, row);
  } catch (err) {
    // A concurrent sign-up with the same email lost the race on the unique index.
    if (await findUserRowByEmail(db, valid.email))
      throw new Conflict('An account with this email already exists.', { cause: err });
    throw err;
  }
  return userRowToUser(row);
}

/** Where and when a sign-in was tried, for the security log. */
export interface SignInAttempt {
  clock: Clock;
  origin?: RequestOrigin | undefined;
}

/**
 * Checks email and password; the same error and the same work whether the email exists or not.
 * AU-10: given the `attempt` (the sign-in page passes it), a wrong password for an existing
 * account is `sign_in_failed` in that account's log, by an unidentified `user` (whoever typed it)
 * from the request's address; an unknown email is in no one's log. Never the password (AU-03).
 */
export async function authenticateUser(
  db: Executor,
  email: string,
  password: string,
  attempt?: SignInAttempt,
): Promise<User> {
  const row = await findUserRowByEmail(db, normalizeEmail(email));
  const ok = await verifyPassword(password, row?.password_hash ?? (await dummyPasswordHash));
  if (row && !ok && attempt) {
    await recordSecurityEvent(db, {
      userId: row.id,
      type: 'sign_in_failed',
      actor: 'user',
      origin: attempt.origin ?? null,
      outcome: 'failure',
      at: attempt.clock.now(),
    });
  }
  if (!row || !ok) throw new InvalidCredentials('Incorrect email or password.');
  return userRowToUser(row);
}

export async function findUserById(db: Executor, id: string): Promise<User | undefined> {
  const row = await findUserRowById(db, id);
  return row ? userRowToUser(row) : undefined;
}

export async function findUserByEmail(db: Executor, email: string): Promise<User | undefined> {
  const row = await findUserRowByEmail(db, normalizeEmail(email));
  return row ? userRowToUser(row) : undefined;
}

export async function requireUserByEmail(db: Executor, email: string): Promise<User> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new NotFound('No user with this email.');
  return user;
}

export async function listUsers(db: Executor): Promise<User[]> {
  return (await listUserRows(db)).map(userRowToUser);
}

/** Deletes the user and, by cascade, everything they own or were issued (GQ-10b). */
export async function deleteUser(db: Executor, id: string): Promise<void> {
  if (!(await deleteUserRow(db, id))) throw new NotFound('No such user.');
}
