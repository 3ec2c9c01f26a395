// Global setup of the node-pg project: one PostgreSQL cluster for the whole run, with the
// migrated template every test database is copied from. Workers learn its URL through
// Vitest's provide/inject (test-database.ts), so the SQLite project is never affected.
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = performance.now();
  // Every test file's systems open pools of up to 10 connections, several files at once.
  const cluster = await startPostgres({ maxConnections: 400 });
  try {
    await cluster.prepareTemplate();
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  process.stderr.write(
    `[node-pg] PostgreSQL on 127.0.0.1:${cluster.port} (pid ${cluster.pid}) ready in ${Math.round(performance.now() - started)} ms\n`,
  );
  project.provide('latchkeyPostgresUrl', cluster.url());
  project.provide('latchkeyPostgresBin', cluster.bin);
  return () => cluster.stop();
}
