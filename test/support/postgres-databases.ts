// Databases of a running PostgreSQL cluster, by URL: the migrated template, fresh copies of it,
// and the free list of emptied databases that the node-pg project recycles between test
// systems. What vitest workers use with the URL the global setup hands them.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDatabase, migrateToLatest } from '@latchkey/db';

/** The migrated database every test database is copied from. */
export const TEMPLATE = 'latchkey_template';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The same server and credentials, another database. */
export function withDatabase(url: string, database: string): string {
  const next = new URL(url);
  next.pathname = `/${database}`;
  return next.toString();
}

async function withAdmin<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(url, 'postgres'), connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * The schema of a database as one digest: tables, columns, indexes and constraints. A
 * database goes back to the free list only if it still has the template's (a test may have
 * renamed a table to break it).
 */
const SCHEMA_DIGEST = `
  select md5(coalesce((select string_agg(table_name || '.' || column_name || ':' || data_type || ':' || is_nullable, ',' order by table_name, column_name)
                         from information_schema.columns where table_schema = 'public'), '')
          || coalesce((select string_agg(indexdef, ',' order by indexdef) from pg_indexes where schemaname = 'public'), '')
          || coalesce((select string_agg(conname || ':' || pg_get_constraintdef(c.oid), ',' order by conname)
                         from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = 'public'), '')) as digest`;

/**
 * Creates the migrated template database if it is not there yet, and closes every connection
 * to it. Also creates, in the maintenance database, the free list of recycled test databases
 * (recycleDatabaseAt) with the template's schema digest.
 */
export async function prepareTemplateAt(url: string): Promise<void> {
  const exists = await withAdmin(url, async (client) => {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [TEMPLATE]);
    if (rowCount === 0) await client.query(`create database ${TEMPLATE}`);
    return rowCount !== 0;
  });
  if (exists) return;
  const db = createDatabase({ url: withDatabase(url, TEMPLATE), poolMax: 1, timeoutMs: 30_000 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  const template = new pg.Client({ connectionString: withDatabase(url, TEMPLATE) });
  await template.connect();
  const digest = await template.query<{ digest: string }>(SCHEMA_DIGEST).finally(() => template.end());
  await withAdmin(url, async (client) => {
    await client.query('create table if not exists latchkey_free_databases (name text primary key)');
    await client.query('create table if not exists latchkey_template_digest (digest text not null)');
    await client.query('insert into latchkey_template_digest (digest) values ($1)', [digest.rows[0]!.digest]);
    // Nobody may connect to a template while it is copied; this also keeps stray test code out.
    await client.query(`alter database ${TEMPLATE} with is_template true allow_connections false`);
  });
}

/**
 * A fresh database copied from `template` (the migrated one by default), named at random;
 * returns its URL. PostgreSQL 15's default strategy copies through the write-ahead log
 * (about 16 MB of writes for the 8 MB of an empty database); FILE_COPY copies the files
 * and costs one checkpoint, which is cheap with fsync off: ~30 ms instead of 60-190 ms.
 */
export async function createDatabaseAt(url: string, template = TEMPLATE): Promise<string> {
  const name = `lk_${randomBytes(8).toString('hex')}`;
  await withAdmin(url, async (client) => {
    const { rows } = await client.query<{ server_version_num: string }>('show server_version_num');
    const strategy = Number(rows[0]!.server_version_num) >= 150_000 ? ' strategy file_copy' : '';
    await client.query(`create database ${name} template ${template}${strategy}`);
  });
  return withDatabase(url, name);
}

/**
 * A migrated database with no rows: a recycled one from the free list when there is one
 * (prepareTemplateAt must have run), else a new copy of the template. Creating a database
 * costs a checkpoint and copying 8 MB (0.1-0.4 s on a busy machine); recycling, a few
 * milliseconds.
 */
export async function borrowDatabaseAt(url: string): Promise<string> {
  const recycled = await withAdmin(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `delete from latchkey_free_databases
        where name = (select name from latchkey_free_databases limit 1 for update skip locked)
        returning name`,
    );
    return rows[0]?.name;
  });
  return recycled === undefined ? createDatabaseAt(url) : withDatabase(url, recycled);
}

/**
 * Gives a borrowed database back: emptied and put on the free list, or dropped when it cannot
 * be trusted any more (its schema changed, or a connection to it is still open and could
 * write into the next test's data).
 */
export async function recycleDatabaseAt(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  let clean = false;
  try {
    await client.connect();
    // Pools closed a moment ago: their backends leave pg_stat_activity asynchronously.
    for (let attempt = 0; ; attempt += 1) {
      const { rows } = await client.query<{ n: string }>(
        'select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      if (Number(rows[0]!.n) === 0) break;
      if (attempt >= 50) throw new Error('still in use');
      await sleep(10);
    }
    const [{ rows: now }, { rows: expected }] = await Promise.all([
      client.query<{ digest: string }>(SCHEMA_DIGEST),
      withAdmin(url, (admin) => admin.query<{ digest: string }>('select digest from latchkey_template_digest')),
    ]);
    if (now[0]?.digest !== expected[0]?.digest) throw new Error('schema changed');
    const { rows: tables } = await client.query<{ tablename: string }>(
      "select tablename from pg_tables where schemaname = 'public' and tablename not like 'kysely\\_%'",
    );
    await client.query('begin');
    // Foreign keys need no order when their triggers are off; every table is emptied anyway.
    await client.query('set local session_replication_role = replica');
    for (const { tablename } of tables) await client.query(`delete from ${pg.escapeIdentifier(tablename)}`);
    await client.query('commit');
    clean = true;
  } catch {
    clean = false;
  } finally {
    await client.end().catch(() => {});
  }
  if (clean)
    await withAdmin(url, (admin) => admin.query('insert into latchkey_free_databases (name) values ($1)', [name]));
  else await dropDatabaseAt(url);
}

/** Drops the database the URL names, closing any connection still open to it. */
export async function dropDatabaseAt(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^lk_[0-9a-f]{16}$/.test(name))
    throw new Error(`refusing to drop a database the harness did not create: ${name}`);
  await withAdmin(url, (client) => client.query(`drop database if exists ${name} with (force)`));
}
