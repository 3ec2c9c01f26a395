// RE-03: the purge deletes in bounded batches, so a running system keeps answering while it works
// through a large backlog: 50,000 used authorization codes purged while a client calls /graphql
// every few milliseconds, in the same process as the purge (the servers' own database handle).
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { purgeExpiredData } from '@latchkey/core';
import { postGraphql } from '../../apps/api/src/testing/post-graphql.ts';
import { codeRow, insertGrant } from '../../packages/core/src/retention/retention.fixture.ts';
import { makeClient, makePat, useUsers } from '../support/fixtures.ts';
import { useSystem } from '../support/system.ts';

const system = useSystem();
const { user } = useUsers(system, { user: 'Ada Lovelace' });
const DAY = 24 * 60 * 60 * 1000;
const CODES = 50_000;
/** Rows per INSERT: 14 columns each, well under SQLite's and PostgreSQL's parameter limits. */
const ROWS_PER_INSERT = 1000;

describe('RE-03 bounded batches', () => {
  it(
    'RE-03 50,000 used codes are purged in batches of 1,000 while /graphql keeps answering every call, fast',
    { timeout: 180_000 },
    async () => {
      const { client } = await makeClient(system, user);
      const owner = { userId: user.id, clientId: client.id };
      const token = await makePat(system, user);
      const longAgo = system.clock.now() - 100 * DAY;
      const grantId = await insertGrant(system.db, owner, longAgo - DAY);
      const insertStarted = performance.now();
      for (let done = 0; done < CODES; done += ROWS_PER_INSERT) {
        const rows = Array.from({ length: ROWS_PER_INSERT }, () =>
          codeRow(owner, { grantId, expiresAt: longAgo, consumedAt: longAgo }),
        );
        await system.db.insertInto('authorization_codes').values(rows).execute();
      }
      const insertMs = performance.now() - insertStarted;

      // The API's latency without a purge, for comparison.
      const baseline: number[] = [];
      for (let i = 0; i < 30; i += 1) {
        const started = performance.now();
        expect((await postGraphql(system.apiUrl, { token })).status).toBe(200);
        baseline.push(performance.now() - started);
        await sleep(5);
      }

      const latencies: number[] = [];
      const statuses: number[] = [];
      let purging = true;
      const caller = (async () => {
        while (purging) {
          const started = performance.now();
          const answer = await postGraphql(system.apiUrl, { token });
          latencies.push(performance.now() - started);
          statuses.push(answer.status);
          await sleep(5);
        }
      })();
      const purgeStarted = performance.now();
      const result = await purgeExpiredData(system.db, system.clock, {
        retentionDays: 90,
        auditRetentionDays: 365,
      }).finally(() => {
        purging = false;
      });
      const purgeMs = performance.now() - purgeStarted;
      await caller;

      expect(result).toMatchObject({ skipped: false, deleted: { authorization_codes: CODES, grants: 1 } });
      const left = await system.db
        .selectFrom('authorization_codes')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(left.n)).toBe(0);

      const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      const max = Math.max(...latencies);
      console.info(
        `RE-03 ${system.engine}: inserted ${CODES} codes in ${Math.round(insertMs)} ms; purged in ${Math.round(purgeMs)} ms ` +
          `(${Math.round(CODES / (purgeMs / 1000))} rows/s); API without purge p50 ${p50(baseline).toFixed(1)} ms, ` +
          `max ${Math.max(...baseline).toFixed(1)} ms; ${latencies.length} calls during the purge, ` +
          `p50 ${p50(latencies).toFixed(1)} ms, max ${max.toFixed(1)} ms`,
      );
      // Requests were answered throughout, all of them successfully.
      expect(latencies.length).toBeGreaterThan(5);
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(max).toBeLessThan(2000);
    },
  );
});
