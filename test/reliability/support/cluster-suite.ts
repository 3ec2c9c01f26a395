// One cluster per test file: PostgreSQL (+ Redis), then the server processes, started before
// the file's tests and stopped after them; on a failed test the last log lines of every
// instance are printed.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startBackingServices, type BackingServices, type BackingServicesOptions } from './backing-services.ts';
import { startCluster, type Cluster, type ClusterOptions } from './cluster.ts';

export interface ClusterSuite {
  readonly cluster: Cluster;
  readonly services: BackingServices;
}

export type ClusterSuiteOptions = BackingServicesOptions & Omit<ClusterOptions, 'databaseUrl' | 'redisUrl'>;

const START_TIMEOUT_MS = 90_000;

export function useCluster(options: ClusterSuiteOptions): ClusterSuite {
  let cluster: Cluster | undefined;
  let services: BackingServices | undefined;

  beforeAll(async () => {
    const starting = performance.now();
    services = await startBackingServices(options);
    console.log(
      `[cluster] PostgreSQL${services.redis ? ' and Redis' : ''} ready in ${Math.round(performance.now() - starting)} ms`,
    );
    const started = performance.now();
    try {
      cluster = await startCluster({
        ...options,
        databaseUrl: services.databaseUrl,
        ...(services.redis === undefined ? {} : { redisUrl: services.redis.url }),
      });
    } catch (err) {
      await services.stop();
      throw err;
    }
    console.log(`[cluster] ${cluster.all().length} instances ready in ${Math.round(performance.now() - started)} ms`);
  }, START_TIMEOUT_MS);

  afterEach((context) => {
    if (context.task.result?.state === 'fail' && cluster) console.log(cluster.logTails());
  });

  afterAll(async () => {
    const stopping = performance.now();
    await cluster?.stop();
    await services?.stop();
    console.log(`[cluster] stopped in ${Math.round(performance.now() - stopping)} ms`);
  }, START_TIMEOUT_MS);

  return {
    get cluster() {
      if (!cluster) throw new Error('the cluster did not start');
      return cluster;
    },
    get services() {
      if (!services) throw new Error('the backing services did not start');
      return services;
    },
  };
}
