// The shared state of a cluster: one throwaway PostgreSQL server (test/support/postgres.ts)
// with an empty database that the first authorization server migrates, and one throwaway
// redis-server (test/support/redis.ts). Both are children of the test process, on loopback
// ports; the fault tests stop, freeze or kill exactly these.
import pg from 'pg';
import { startPostgres, type PostgresCluster } from '../../support/postgres.ts';
import { startRedisServer, type RedisServer } from '../../support/redis.ts';

export interface BackingServices {
  postgres: PostgresCluster;
  redis: RedisServer | undefined;
  /** The cluster's database (empty: the servers migrate it). */
  databaseUrl: string;
  stop(): Promise<void>;
}

export interface BackingServicesOptions {
  /** Start a redis-server too (REDIS_URL). */
  redis?: boolean;
  /** PostgreSQL settings that need a restart (ALTER SYSTEM), e.g. track_commit_timestamp. */
  postgresSettings?: Record<string, string>;
  /**
   * synchronous_commit back on for the cluster's database: the throwaway server runs with it
   * off, which loses the last acknowledged commits when the server crashes (a restart in
   * immediate mode), and a test counting what was committed would blame the servers.
   */
  durableCommits?: boolean;
}

/** Runs one statement as the superuser on the maintenance database. */
export async function adminQuery<T extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<pg.QueryResult<T>> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await client.query<T>(text, values);
  } finally {
    await client.end();
  }
}

export async function startBackingServices(options: BackingServicesOptions = {}): Promise<BackingServices> {
  const [postgres, redis] = await Promise.all([
    startPostgres(),
    options.redis ? startRedisServer() : Promise.resolve(undefined),
  ]);
  try {
    const settings = Object.entries(options.postgresSettings ?? {});
    for (const [name, value] of settings) {
      if (!/^[a-z_]+$/.test(name)) throw new Error(`not a setting name: ${name}`);
      await adminQuery(postgres.url(), `alter system set ${name} = '${value.replace(/'/g, "''")}'`);
    }
    if (settings.length > 0) await postgres.restart('fast');
    const databaseUrl = await postgres.createDatabase({ migrated: false });
    if (options.durableCommits) {
      const name = new URL(databaseUrl).pathname.slice(1);
      if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unexpected database name: ${name}`);
      // A database's own setting outranks the server's command line for every new session.
      await adminQuery(postgres.url(), `alter database ${name} set synchronous_commit = on`);
    }
    return {
      postgres,
      redis,
      databaseUrl,
      async stop() {
        await Promise.allSettled([postgres.stop(), redis?.stop()]);
      },
    };
  } catch (err) {
    await Promise.allSettled([postgres.stop(), redis?.stop()]);
    throw err;
  }
}
