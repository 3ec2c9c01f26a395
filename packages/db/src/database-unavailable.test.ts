// D-10: which driver errors mean "the database cannot serve now" (503 + Retry-After) and
// which are errors of the request. The real PostgreSQL errors are produced against a real
// server in postgres-pool.postgres.test.ts; these are the shapes, for both engines.
import { describe, expect, it } from 'vitest';
import { createDatabase } from './create-database.ts';
import { isDatabaseUnavailable } from './database-unavailable.ts';
import { ConnectionAbandonedError } from './postgres-pool.ts';

const sqlite = (errcode: number) => Object.assign(new Error('sqlite says no'), { code: 'ERR_SQLITE_ERROR', errcode });
/** The shape of pg's DatabaseError: a SQLSTATE in `code`. */
const postgres = (code: string) => Object.assign(new Error('postgres says no'), { code, severity: 'ERROR' });
const network = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('isDatabaseUnavailable', () => {
  it('SQLite: busy, locked, read-only, I/O, corrupt, full and cannot-open (with extended codes)', () => {
    for (const code of [5, 6, 7, 8, 10, 11, 13, 14, 15, 10 | (3 << 8), 5 | (1 << 8)]) {
      expect(isDatabaseUnavailable(sqlite(code)), String(code)).toBe(true);
    }
  });

  it('a destroyed database handle (Kysely, either engine: the instance is shutting down) cannot serve', async () => {
    const db = createDatabase({ sqlitePath: ':memory:' });
    await db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
    await db.destroy();
    const error = await db.selectNoFrom((eb) => eb.val(1).as('one')).execute().catch((err: unknown) => err);
    expect(isDatabaseUnavailable(error)).toBe(true);
    // A bug is not an outage.
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });

  it('SQLite: a constraint violation or a bad statement is the request, not the database', () => {
    for (const code of [1, 19, 19 | (8 << 8), 20, 25])
      expect(isDatabaseUnavailable(sqlite(code)), String(code)).toBe(false);
  });

  it('PostgreSQL: connection exceptions (08), resources (53), shutdown (57P0x), timeouts, a read-only standby', () => {
    for (const code of [
      '08000',
      '08003',
      '08006',
      '08001',
      '08004',
      '53000',
      '53100',
      '53200',
      '53300',
      '57P01',
      '57P02',
      '57P03',
      '57014',
      '55P03',
      '25P03',
      '25006',
    ]) {
      expect(isDatabaseUnavailable(postgres(code)), code).toBe(true);
    }
  });

  it('PostgreSQL: constraint, syntax, missing table and data errors are the request', () => {
    for (const code of ['23505', '23503', '23502', '42601', '42P01', '22P02', '40001', '42501']) {
      expect(isDatabaseUnavailable(postgres(code)), code).toBe(false);
    }
  });

  it('the network on the way: refused, reset, unreachable, DNS', () => {
    for (const code of [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'ENOTFOUND',
      'EAI_AGAIN',
    ]) {
      expect(isDatabaseUnavailable(network(code)), code).toBe(true);
    }
  });

  it("pg's and pg-pool's code-less errors: acquire timeout, terminated connection, query read timeout", () => {
    for (const message of [
      'timeout exceeded when trying to connect',
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'Connection terminated',
      'Query read timeout',
      'Client has encountered a connection error and is not queryable',
    ]) {
      expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
    }
    expect(isDatabaseUnavailable(new ConnectionAbandonedError())).toBe(true);
  });

  it('follows causes and AggregateErrors (both addresses of localhost refused)', () => {
    expect(isDatabaseUnavailable(new Error('lookup failed', { cause: postgres('57P01') }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([network('ECONNREFUSED'), network('ECONNREFUSED')], ''))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('outer', { cause: new Error('inner', { cause: postgres('23505') }) }))).toBe(
      false,
    );
  });

  it('anything else is not', () => {
    for (const value of [
      new Error('boom'),
      new TypeError('x is undefined'),
      'ECONNREFUSED',
      undefined,
      null,
      { code: '57P01' },
    ]) {
      expect(isDatabaseUnavailable(value)).toBe(false);
    }
    // A cause cycle ends.
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});
