// The PostgreSQL pool against a real server (node-pg project only): its bound, its three
// timeouts (acquire, statement, no answer at all), BIGINT parsing confined to the pool, idle
// connection errors, and migrations run by several instances at once.
import { createServer } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabaseAt, dropDatabaseAt, startPostgres, type PostgresCluster } from '#test/support/postgres.ts';
import { testPostgresUrl } from '#test/support/test-database.ts';
import { createDatabase } from './create-database.ts';
import type { Db } from './database.ts';
import { isDatabaseUnavailable } from './database-unavailable.ts';
import { migrateToLatest } from './migrate.ts';
import type { PostgresOptions } from './postgres-pool.ts';

const cluster = testPostgresUrl()!;
let url: string;
const opened: Db[] = [];
const created: string[] = [];

function open(options: Partial<PostgresOptions> & { url?: string } = {}): Db {
  const db = createDatabase({ url, poolMax: 4, timeoutMs: 5000, ...options });
  opened.push(db);
  return db;
}

async function freshDatabase(template?: string): Promise<string> {
  const next = await createDatabaseAt(cluster, template);
  created.push(next);
  return next;
}

/** Runs `use` with a plain pg client on the maintenance database (not through the pool under test). */
async function admin<T>(use: (client: pg.Client) => Promise<T>, server = cluster): Promise<T> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const backends = (applicationName: string, server = cluster) =>
  admin(async (client) => {
    const { rows } = await client.query<{ n: string }>(
      'select count(*) as n from pg_stat_activity where application_name = $1',
      [applicationName],
    );
    return Number(rows[0]!.n);
  }, server);

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('expected the query to fail');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  url = await freshDatabase();
});
afterAll(async () => {
  await Promise.allSettled(opened.map((db) => db.destroy()));
  await Promise.allSettled(created.map((u) => dropDatabaseAt(u)));
});

describe('PostgreSQL pool', () => {
  it('never opens more than poolMax connections, and queues the rest', async () => {
    const name = `lk-bound-${Date.now()}`;
    const db = open({ poolMax: 3, applicationName: name });
    let peak = 0;
    let running = true;
    const sampler = (async () => {
      while (running) {
        peak = Math.max(peak, await backends(name));
        await sleep(20);
      }
    })();
    const started = performance.now();
    await Promise.all(Array.from({ length: 9 }, () => sql`select pg_sleep(0.15)`.execute(db)));
    const elapsed = performance.now() - started;
    running = false;
    await sampler;
    expect(peak).toBe(3);
    // Nine queries of 150 ms over three connections: three rounds, not one.
    expect(elapsed).toBeGreaterThan(400);
  });

  it('R-06 a full pool gives up after timeoutMs with an error that means "unavailable"', async () => {
    const db = open({ poolMax: 1, timeoutMs: 400 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let acquired!: () => void;
    const holding = new Promise<void>((resolve) => (acquired = resolve));
    const holder = db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      acquired();
      await held;
    });
    // The one connection is checked out for certain (a fixed sleep raced the connect).
    await holding;
    const started = performance.now();
    const err = await failure(sql`select 1`.execute(db));
    const elapsed = performance.now() - started;
    release();
    await holder;
    expect(err.message).toBe('timeout exceeded when trying to connect');
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(elapsed).toBeGreaterThan(350);
    expect(elapsed).toBeLessThan(1500);
    // The connection came back: the pool serves again.
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it('R-06 a statement running past the timeout is cancelled by the server (57014), and the connection stays usable', async () => {
    const name = `lk-stmt-${Date.now()}`;
    const db = open({ poolMax: 1, timeoutMs: 500, applicationName: name });
    const started = performance.now();
    const err = await failure(sql`select pg_sleep(5)`.execute(db));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(err.code).toBe('57014');
    expect(isDatabaseUnavailable(err)).toBe(true);
    const pid = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
    const first = await pid();
    expect(await pid()).toBe(first);
    expect(await backends(name)).toBe(1);
  });

  it('BIGINT (int8) comes back as a number from this pool only; the process-wide pg.types are untouched', async () => {
    const db = open();
    const { rows } = await sql<{
      big: unknown;
      n: unknown;
    }>`select 9007199254740991::bigint as big, count(*) as n from pg_class`.execute(db);
    expect(rows[0]!.big).toBe(Number.MAX_SAFE_INTEGER);
    expect(typeof rows[0]!.n).toBe('number');
    const plain = await admin((client) => client.query<{ big: unknown }>('select 42::bigint as big'));
    expect(plain.rows[0]!.big).toBe('42');
  });

  it('queries with parameters are prepared once per connection, and survive a column added meanwhile', async () => {
    // A database of its own: the table it creates would be there on a repeat (--repeats).
    const db = open({ url: await freshDatabase(), poolMax: 1, applicationName: 'latchkey-prepared' });
    await sql`create table prepared_probe (id text primary key, n bigint not null)`.execute(db);
    await sql`insert into prepared_probe values ('a', 1)`.execute(db);
    const read = () =>
      db
        .selectFrom('prepared_probe' as never)
        .selectAll()
        .where('id' as never, '=', 'a' as never)
        .execute();
    expect(await read()).toEqual([{ id: 'a', n: 1 }]);
    const { rows } = await sql<{ n: number }>`select count(*) as n from pg_prepared_statements`.execute(db);
    expect(rows[0]!.n).toBeGreaterThanOrEqual(1);
    // Another instance migrates: the prepared `select *` now has a stale result type (0A000).
    await sql`alter table prepared_probe add column extra text`.execute(db);
    expect(await read()).toEqual([{ id: 'a', n: 1, extra: null }]);
    expect(await read()).toEqual([{ id: 'a', n: 1, extra: null }]);
  });

  it('names itself in pg_stat_activity', async () => {
    const name = `lk-name-${Date.now()}`;
    const db = open({ applicationName: name });
    await sql`select 1`.execute(db);
    expect(await backends(name)).toBe(1);
  });

  it('an idle connection killed by the server does not crash the process; the next query gets a new one', async () => {
    const name = `lk-idle-${Date.now()}`;
    const idleErrors: Error[] = [];
    const db = open({ poolMax: 2, applicationName: name, onIdleError: (err) => idleErrors.push(err) });
    await sql`select 1`.execute(db);
    await admin((client) =>
      client.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [name]),
    );
    for (let i = 0; i < 250 && idleErrors.length === 0; i += 1) await sleep(20);
    expect(idleErrors.length).toBeGreaterThan(0);
    expect(isDatabaseUnavailable(idleErrors[0])).toBe(true);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it('R-05 a connection killed while checked out (in a transaction) fails that transaction, not the process', async () => {
    const name = `lk-busy-${Date.now()}`;
    const db = open({ poolMax: 2, applicationName: name });
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => (resume = resolve));
    let checkedOut!: () => void;
    const inTransaction = new Promise<void>((resolve) => (checkedOut = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      checkedOut();
      await paused;
      await sql`select 1`.execute(trx);
    });
    // Terminate only once the transaction holds its connection (a fixed sleep raced the connect).
    await inTransaction;
    const terminated = await admin((client) =>
      client.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [name]),
    );
    expect(terminated.rowCount).toBe(1);
    // The server's FATAL message and the closed socket arrive while no query is running.
    for (let i = 0; i < 250 && (await backends(name)) !== 0; i += 1) await sleep(20);
    expect(await backends(name)).toBe(0);
    await sleep(50);
    resume();
    const err = await failure(transaction);
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it('R-05 the server says goodbye in the same read as its welcome: that query fails as "unavailable", the process lives', async () => {
    // What a real server sends when a fast shutdown reaches a backend as it finishes starting:
    // AuthenticationOk, ReadyForQuery and the FATAL 57P01, arriving together. A server on
    // loopback writes exactly those bytes, since the timing cannot be arranged with a real one.
    const message = (type: string, body: Buffer) => {
      const header = Buffer.alloc(5);
      header.write(type, 0, 'latin1');
      header.writeInt32BE(body.length + 4, 1);
      return Buffer.concat([header, body]);
    };
    const field = (code: string, value: string) => Buffer.from(`${code}${value}\0`, 'utf8');
    const goodbye = Buffer.concat([
      message('R', Buffer.from([0, 0, 0, 0])),
      message('Z', Buffer.from('I', 'latin1')),
      message(
        'E',
        Buffer.concat([
          field('S', 'FATAL'),
          field('V', 'FATAL'),
          field('C', '57P01'),
          field('M', 'terminating connection due to administrator command'),
          Buffer.from([0]),
        ]),
      ),
    ]);
    const server = createServer((socket) => socket.once('data', () => socket.end(goodbye)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const uncaught: unknown[] = [];
    const record = (err: unknown) => uncaught.push(err);
    process.on('uncaughtExceptionMonitor', record);
    try {
      const { port } = server.address() as { port: number };
      const db = open({ url: `postgres://postgres@127.0.0.1:${port}/latchkey`, timeoutMs: 2000 });
      const err = await failure(sql`select 1`.execute(db));
      expect(isDatabaseUnavailable(err)).toBe(true);
      await sleep(50);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtExceptionMonitor', record);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('R-05 nothing listening: connection refused is "unavailable" at once', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const db = open({ url: `postgres://postgres@127.0.0.1:${port}/latchkey`, timeoutMs: 2000 });
    const started = performance.now();
    const err = await failure(sql`select 1`.execute(db));
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('migrations on PostgreSQL', () => {
  it('several instances migrating one empty database at once: all succeed, each migration runs once', async () => {
    for (let round = 0; round < 3; round += 1) {
      const empty = await freshDatabase('template0');
      const instances = [open({ url: empty }), open({ url: empty }), open({ url: empty })];
      const applied = await Promise.all(instances.map((db) => migrateToLatest(db)));
      const all = applied.flat();
      expect(new Set(all).size).toBe(all.length);
      const recorded = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        instances[0]!,
      );
      expect(recorded.rows.map((r) => r.name)).toEqual([...all].sort());
      expect(all.length).toBeGreaterThanOrEqual(2);
      // Idempotent: nothing left to do for anyone.
      expect(await migrateToLatest(instances[1]!)).toEqual([]);
    }
  });
});

// A cluster of this file's own, to freeze: the shared one serves the other test files.
describe('a server that stops answering (SIGSTOP)', () => {
  let own: PostgresCluster;
  beforeAll(async () => {
    own = await startPostgres({ maxConnections: 20 });
  });
  afterAll(async () => {
    await own?.stop();
  });

  it('R-06 a connection still opening when its query gave up keeps opening, and joins the pool once the server answers', async () => {
    const name = `lk-backlog-${Date.now()}`;
    const db = open({ url: await own.createDatabase(), poolMax: 1, timeoutMs: 300, applicationName: name });
    own.kill('SIGSTOP');
    let err: Error;
    let elapsed: number;
    try {
      const started = performance.now();
      err = await failure(sql`select 1`.execute(db));
      elapsed = performance.now() - started;
      // Longer frozen than the query's time limit: a connection attempt given up with the
      // query would be gone by now, and the server would only find a closed socket.
      await sleep(1200);
    } finally {
      own.kill('SIGCONT');
    }
    expect(err.message).toBe('timeout exceeded when trying to connect');
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(elapsed).toBeLessThan(1000);
    // Without another query: the attempt made while frozen opens, and waits idle in the pool.
    let idle = 0;
    for (let i = 0; i < 100 && idle === 0; i += 1) {
      idle = await backends(name, own.url());
      if (idle === 0) await sleep(20);
    }
    expect(idle).toBe(1);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    expect(await backends(name, own.url())).toBe(1);
  });

  it('R-06 query_timeout ends the wait, and the connection is discarded rather than reused', async () => {
    const name = `lk-frozen-${Date.now()}`;
    const db = open({ url: await own.createDatabase(), poolMax: 2, timeoutMs: 600, applicationName: name });
    await sql`select 1`.execute(db);
    own.kill('SIGSTOP');
    let err: Error;
    let elapsed: number;
    try {
      const started = performance.now();
      err = await failure(sql`select 1`.execute(db));
      elapsed = performance.now() - started;
    } finally {
      own.kill('SIGCONT');
    }
    expect(err.message).toBe('Query read timeout');
    expect(isDatabaseUnavailable(err)).toBe(true);
    expect(elapsed).toBeGreaterThan(500);
    expect(elapsed).toBeLessThan(1500);
    // The abandoned connection was closed: its backend goes away once the server runs again.
    const watcher = new pg.Client({ connectionString: own.url() });
    await watcher.connect();
    try {
      let left = -1;
      for (let i = 0; i < 250 && left !== 0; i += 1) {
        const { rows } = await watcher.query<{ n: string }>(
          'select count(*) as n from pg_stat_activity where application_name = $1',
          [name],
        );
        left = Number(rows[0]!.n);
        if (left !== 0) await sleep(20);
      }
      expect(left).toBe(0);
    } finally {
      await watcher.end();
    }
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });
});
