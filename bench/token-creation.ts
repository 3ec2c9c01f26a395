// AU-14: what the security log costs a token creation (`node bench/token-creation.ts`, or
// benchTokenCreation() from run.ts). The same creation twice, in the same run, on the same file
// or database: core's createPersonalAccessToken, which writes the token and its `token.created`
// event in one transaction, against the token row alone in a transaction (what creating a token
// did before the log). Sequential, so each figure is one creation's latency.
import { performance } from 'node:perf_hooks';
import { createPersonalAccessToken, createUser, IdPrefix, systemClock, type AuditActor } from '@latchkey/core';
import { digest, generateToken, lastFour, randomBase62, TokenPrefix } from '@latchkey/credentials';
import { createDatabase, type AccessTokensTable, type Db } from '@latchkey/db';
import type { Figure, Goal } from './results.ts';
import { sqliteEngine, type LookupEngine } from './token-lookup.ts';

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;
/**
 * With the log ÷ without, per creation (p50): the log is one more INSERT in the same transaction,
 * so at most twice the token row alone. On SQLite that is about 130 µs; on PostgreSQL each
 * statement is a round trip to the server (about 0.5 ms here), which a data-modifying CTE (one
 * statement for both rows) could save.
 */
export const CREATION_GOAL = 2;

export interface CreationMeasurement {
  engine: string;
  /** p50 and p99 in µs per creation. */
  withLog: { p50: number; p99: number };
  withoutLog: { p50: number; p99: number };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(count: number, run: (i: number) => Promise<void>): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const start = performance.now();
    await run(i);
    times.push((performance.now() - start) * 1000);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function measure(engine: LookupEngine, count: number): Promise<CreationMeasurement> {
  const created = await engine.createDatabase();
  const db: Db = createDatabase(created.options);
  try {
    const user = await createUser(db, systemClock, {
      email: `bench-${Date.now()}@example.test`,
      name: 'Ada Lovelace',
      password: 'correct horse battery staple',
    });
    const actor: AuditActor = { kind: 'user', userId: user.id, origin: { ip: '203.0.113.7', userAgent: 'bench/1.0' } };
    const scope = 'profile email';
    const withLog = () =>
      createPersonalAccessToken(db, systemClock, YEAR_MS / 1000, { userId: user.id, name: 'bench', actor }).then(
        () => undefined,
      );
    const withoutLog = async () => {
      const now = systemClock.now();
      const token = generateToken(TokenPrefix.personalAccessToken);
      const row: AccessTokensTable = {
        id: `${IdPrefix.accessToken}_${randomBase62(20)}`,
        token_hash: digest(token),
        kind: 'pat',
        user_id: user.id,
        client_id: null,
        grant_id: null,
        name: 'bench',
        description: null,
        last4: lastFour(token),
        created_at: now,
        expires_at: now + YEAR_MS,
        revoked_at: null,
        last_used_at: null,
        scope,
        audience: 'latchkey_api',
      };
      await db.transaction().execute((trx) => trx.insertInto('access_tokens').values(row).execute());
    };
    // Warm both paths, then alternate blocks so neither gets the quieter half of the run.
    await timed(50, withLog);
    await timed(50, withoutLog);
    const a1 = await timed(count / 2, withLog);
    const b1 = await timed(count / 2, withoutLog);
    const b2 = await timed(count / 2, withoutLog);
    const a2 = await timed(count / 2, withLog);
    const mean = (x: { p50: number; p99: number }, y: { p50: number; p99: number }) => ({
      p50: (x.p50 + y.p50) / 2,
      p99: (x.p99 + y.p99) / 2,
    });
    return { engine: engine.name, withLog: mean(a1, a2), withoutLog: mean(b1, b2) };
  } finally {
    await db.destroy();
    await created.drop();
  }
}

export interface TokenCreationResult {
  measurements: CreationMeasurement[];
  goals: Goal[];
}

export async function benchTokenCreation(options: {
  engines: readonly LookupEngine[];
  quick?: boolean;
  print?: boolean;
}): Promise<TokenCreationResult> {
  const count = options.quick ? 400 : 2000;
  const measurements: CreationMeasurement[] = [];
  for (const engine of options.engines) measurements.push(await measure(engine, count));
  const goals = measurements.map((m) => {
    const ratio = m.withLog.p50 / m.withoutLog.p50;
    return {
      goal: `${m.engine}: token creation with the security log ≤ ${CREATION_GOAL} × without (p50)`,
      measured: `${ratio.toFixed(2)} × (${m.withLog.p50.toFixed(0)} vs ${m.withoutLog.p50.toFixed(0)} µs, +${(m.withLog.p50 - m.withoutLog.p50).toFixed(0)} µs)`,
      pass: ratio <= CREATION_GOAL,
    };
  });
  if (options.print !== false) {
    console.log('Token creation with and without the security log (AU-14), one at a time\n');
    for (const m of measurements) {
      console.log(
        `  ${m.engine.padEnd(10)} with the log p50 ${m.withLog.p50.toFixed(0)} µs, p99 ${m.withLog.p99.toFixed(0)} µs;` +
          ` without p50 ${m.withoutLog.p50.toFixed(0)} µs, p99 ${m.withoutLog.p99.toFixed(0)} µs`,
      );
    }
  }
  return { measurements, goals };
}

export function creationFigures(result: TokenCreationResult): Figure[] {
  return result.measurements.flatMap((m) => [
    {
      figure: `Token creation with the security log, ${m.engine}`,
      measured: `p50 ${m.withLog.p50.toFixed(0)} µs, p99 ${m.withLog.p99.toFixed(0)} µs`,
    },
    {
      figure: `Token creation without it (the token row alone), ${m.engine}`,
      measured: `p50 ${m.withoutLog.p50.toFixed(0)} µs, p99 ${m.withoutLog.p99.toFixed(0)} µs`,
    },
  ]);
}

if (import.meta.main) {
  const result = await benchTokenCreation({ engines: [sqliteEngine()], quick: process.env.BENCH_QUICK === '1' });
  for (const goal of result.goals) console.log(`${goal.pass ? 'PASS' : 'FAIL'}  ${goal.goal}: ${goal.measured}`);
}
