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

/** The refusal of one field, or undefined when it passes. */
async function refusalOf(check: () => unknown): Promise<ValidationFailed | undefined> {
  try {
    await check();
    return undefined;
  } catch (err) {
    if (err instanceof ValidationFailed) return err;
    throw err;
  }
}

/**
 * AX-08: every field's refusal at once, email, name then password (the order createUser
 * reports the first), so a form can mark each wrong field on one answer. The password is
 * judged against the account's words as given, even when the email or name is refused.
 */
export async function findNewUserErrors(input: NewUser): Promise<ValidationFailed[]> {
  const email = normalizeEmail(input.email);
  const refusals = await Promise.all([
    refusalOf(() => {
      if (!EMAIL.test(email) || email.length > 254 || hasControlCharacters(email))
        throw new ValidationFailed('email', 'Enter a valid email address.');
    }),
    refusalOf(() => validateName(input.name, 'name')),
    refusalOf(() => checkPassword(input.password, { email, name: input.name.trim() })),
  ]);
  return refusals.filter((refusal) => refusal !== undefined);
}

async function validateNewUser(input: NewUser): Promise<NewUser> {
  const [first] = await findNewUserErrors(input);
  if (first) throw first;
  const email = normalizeEmail(input.email);
  return { email, name: validateName(input.name, 'name'), password: input.password };
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
