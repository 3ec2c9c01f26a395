// RE-06: the purge every server process runs on its schedule (schedulePurge, started by
// runServerProcess), over a real database (SQLite; PostgreSQL in node-pg), with intervals of
// milliseconds instead of minutes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@latchkey/config';
import { ManualClock } from '@latchkey/core';
import { migrateToLatest, type Db } from '@latchkey/db';
import { anOutage, FaultInjector } from '#test/support/faults.ts';
import { captureLogger } from '#test/support/loopback.ts';
import { createTestDatabase, type TestDatabase } from '#test/support/test-database.ts';
import { schedulePurge } from './purge-schedule.ts';

const NOW = Date.UTC(2026, 5, 1);
const clock = new ManualClock(NOW);
const faults = new FaultInjector();
let dir: string;
let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'latchkey-purge-schedule-'));
  database = await createTestDatabase(dir);
  db = database.open().withPlugin(faults);
  await migrateToLatest(db);
});
afterAll(async () => {
  await db?.destroy();
  await database?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function expiredSession(): Promise<string> {
  const sid = `sid_${Math.random().toString(36).slice(2)}`;
  await db
    .insertInto('sessions')
    .values({ sid, data: '{}', expires_at: NOW - 1 })
    .execute();
  return sid;
}

async function exists(sid: string): Promise<boolean> {
  return (await db.selectFrom('sessions').select('sid').where('sid', '=', sid).executeTakeFirst()) !== undefined;
}

async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

/** Secrets given, so loading the configuration writes nothing under DATA_DIR. */
const ENV = {
  NODE_ENV: 'test',
  DATA_DIR: '/nonexistent',
  SESSION_SECRET: 'x'.repeat(32),
  PORTAL_CLIENT_ID: 'p',
  PORTAL_CLIENT_SECRET: 'y'.repeat(32),
} as const;
const { retention } = loadConfig(ENV);

describe('RE-06 purge schedule', () => {
  it('RE-06 the configuration: RETENTION_DAYS 90, AUDIT_RETENTION_DAYS 365, PURGE_INTERVAL_MINUTES 60 by default; bounds checked', () => {
    expect(retention).toEqual({ days: 90, auditDays: 365, purgeIntervalMinutes: 60 });
    expect(
      loadConfig({ ...ENV, RETENTION_DAYS: '30', AUDIT_RETENTION_DAYS: '730', PURGE_INTERVAL_MINUTES: '0' }).retention,
    ).toEqual({
      days: 30,
      auditDays: 730,
      purgeIntervalMinutes: 0,
    });
    for (const bad of [{ RETENTION_DAYS: '0' }, { AUDIT_RETENTION_DAYS: 'soon' }, { PURGE_INTERVAL_MINUTES: '-1' }]) {
      expect(() => loadConfig({ ...ENV, ...bad })).toThrow(Object.keys(bad)[0]);
    }
  });

  it('RE-06 runs a first time after its delay, then again every interval; stop() ends it for good', async () => {
    const logs: string[] = [];
    const first = await expiredSession();
    const schedule = schedulePurge({
      db,
      clock,
      logger: captureLogger(logs),
      retention,
      firstDelayMs: 20,
      intervalMs: 50,
    });
    try {
      await until(async () => !(await exists(first)));
      const second = await expiredSession();
      await until(async () => !(await exists(second)));
      // Each run says what it did, once it is done.
      await until(async () => logs.filter((line) => line.includes('purge done')).length >= 2);
      expect(JSON.parse(logs.find((line) => line.includes('purge done'))!)).toMatchObject({
        deleted: { sessions: 1 },
      });
    } finally {
      await schedule.stop();
    }
    const afterStop = await expiredSession();
    await sleep(200);
    expect(await exists(afterStop)).toBe(true);
    await db.deleteFrom('sessions').execute();
  });

  it('RE-06 a failing run is logged and the schedule carries on; PURGE_INTERVAL_MINUTES=0 schedules nothing', async () => {
    const logs: string[] = [];
    faults.failQueriesOn('locks', anOutage);
    const schedule = schedulePurge({
      db,
      clock,
      logger: captureLogger(logs),
      retention,
      firstDelayMs: 1,
      intervalMs: 30,
    });
    try {
      await until(async () => logs.some((line) => line.includes('purge failed')));
      faults.clear();
      const sid = await expiredSession();
      await until(async () => !(await exists(sid)));
    } finally {
      faults.clear();
      await schedule.stop();
    }

    const off = schedulePurge({
      db,
      clock,
      logger: captureLogger(logs),
      retention: { ...retention, purgeIntervalMinutes: 0 },
    });
    const kept = await expiredSession();
    await sleep(100);
    expect(await exists(kept)).toBe(true);
    await off.stop();
  });
});
