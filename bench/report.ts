import type { Measurement } from './load.ts';
import type { Figure, Goal } from './results.ts';

/** Issue 2's goals for the API. */
export const GOALS = { ratioToCeiling: 0.3, ratioToApollo: 2.5, p99Ms: 15 } as const;

export interface Report {
  ceiling: Measurement;
  tokenCheck: Measurement;
  api: Measurement;
  apollo: Measurement;
  /** The other peers on the same schema and token check (Mercurius with JIT, Yoga). */
  peers: Measurement[];
  /** Issue 4: the same API on PostgreSQL, or why it was not measured. */
  apiPostgres: Measurement | string;
  exchanges: Measurement | string;
}

const pad = (value: string, width: number) => value.padStart(width);

/** Prints the API's table and its goals (issue 2) and comparisons (issue 4); returns the goals. */
export function printReport({ ceiling, tokenCheck, api, apollo, peers, apiPostgres, exchanges }: Report): Goal[] {
  const measured = (value: Measurement | string) => (typeof value === 'string' ? [] : [value]);
  const rows = [ceiling, tokenCheck, api, ...measured(apiPostgres), apollo, ...peers, ...measured(exchanges)];
  const nameWidth = Math.max(...rows.map((r) => r.name.length), 4);
  console.log(
    `${'name'.padEnd(nameWidth)}  ${pad('req/s', 9)}  ${pad('p50 ms', 7)}  ${pad('p99 ms', 7)}  ${pad('÷ ceiling', 9)}  ${pad('CPU µs/req', 10)}  statuses`,
  );
  for (const row of rows) {
    const cpu = row.cpuMicrosPerRequest === undefined ? '-' : row.cpuMicrosPerRequest.toFixed(1);
    console.log(
      `${row.name.padEnd(nameWidth)}  ${pad(row.requestsPerSecond.toFixed(0), 9)}  ${pad(String(row.p50), 7)}  ${pad(String(row.p99), 7)}  ${pad((row.requestsPerSecond / ceiling.requestsPerSecond).toFixed(2), 9)}  ${pad(cpu, 10)}  ${row.statuses}`,
    );
  }
  if (typeof apiPostgres === 'string') console.log(`API on PostgreSQL: ${apiPostgres}`);
  if (typeof exchanges === 'string') console.log(`code exchanges: ${exchanges}`);

  const toCeiling = api.requestsPerSecond / ceiling.requestsPerSecond;
  const toApollo = api.requestsPerSecond / apollo.requestsPerSecond;
  const goals: Goal[] = [
    {
      goal: `API ÷ ceiling ≥ ${GOALS.ratioToCeiling}`,
      measured: toCeiling.toFixed(2),
      pass: toCeiling >= GOALS.ratioToCeiling,
    },
    {
      goal: `API ÷ Apollo ≥ ${GOALS.ratioToApollo}`,
      measured: toApollo.toFixed(2),
      pass: toApollo >= GOALS.ratioToApollo,
    },
    { goal: `API p99 < ${GOALS.p99Ms} ms`, measured: `${api.p99} ms`, pass: api.p99 < GOALS.p99Ms },
    { goal: 'API answered only 2xx', measured: `${api.failed} failed`, pass: api.failed === 0 },
  ];
  console.log(`\nAPI ÷ Apollo: ${toApollo.toFixed(2)}`);
  for (const peer of peers) {
    const cpu =
      api.cpuMicrosPerRequest !== undefined && peer.cpuMicrosPerRequest !== undefined
        ? `; its CPU per request ÷ the API's ${(peer.cpuMicrosPerRequest / api.cpuMicrosPerRequest).toFixed(2)}`
        : '';
    console.log(`API ÷ ${peer.name}: ${(api.requestsPerSecond / peer.requestsPerSecond).toFixed(2)}${cpu}`);
  }
  if (
    api.cpuMicrosPerRequest !== undefined &&
    apollo.cpuMicrosPerRequest !== undefined &&
    tokenCheck.cpuMicrosPerRequest !== undefined
  ) {
    // CPU per request moves less than req/s when another process shares the machine.
    const layer = api.cpuMicrosPerRequest - tokenCheck.cpuMicrosPerRequest;
    console.log(
      `Server CPU per request: Apollo ÷ API ${(apollo.cpuMicrosPerRequest / api.cpuMicrosPerRequest).toFixed(2)}; ` +
        `API above the token check alone (its GraphQL layer) ${layer.toFixed(1)} µs${layer < 0 ? ' (below zero: within noise)' : ''}`,
    );
  }
  if (typeof apiPostgres !== 'string') {
    // Issue 4 sets no number for this one: the comparison is the deliverable.
    console.log(
      `API on PostgreSQL: ÷ the same on SQLite ${(apiPostgres.requestsPerSecond / api.requestsPerSecond).toFixed(2)}, ` +
        `÷ ceiling ${(apiPostgres.requestsPerSecond / ceiling.requestsPerSecond).toFixed(2)} ` +
        `(the database is another process on the same 2 cores, reached over loopback TCP)`,
    );
    goals.push({
      goal: 'API on PostgreSQL answered only 2xx',
      measured: `${apiPostgres.failed} failed`,
      pass: apiPostgres.failed === 0,
    });
  }
  console.log('\nGoals (issue 2; issue 4 for PostgreSQL):');
  for (const { goal, measured, pass } of goals)
    console.log(`  ${pass ? 'PASS' : 'FAIL'}  ${goal.padEnd(36)} measured ${measured}`);
  return goals;
}

/** The API's figures for bench/results.md: the ratios printed above, with the rates they divide. */
export function apiFigures({ ceiling, tokenCheck, api, apollo, peers, apiPostgres, exchanges }: Report): Figure[] {
  const rate = (m: Measurement) => `${m.requestsPerSecond.toFixed(0)} req/s`;
  const ratio = (a: Measurement, b: Measurement) => (a.requestsPerSecond / b.requestsPerSecond).toFixed(2);
  const cpu = (m: Measurement) =>
    m.cpuMicrosPerRequest === undefined ? 'not read' : `${m.cpuMicrosPerRequest.toFixed(0)} µs`;
  const vs = (peer: Measurement): Figure => ({
    figure: `API ÷ ${peer.name}`,
    measured: `${ratio(api, peer)} (${rate(peer)}; its CPU per request ${cpu(peer)})`,
  });
  return [
    {
      figure: 'API ÷ bare node:http ceiling',
      measured: `${ratio(api, ceiling)} (API ${rate(api)}, ceiling ${rate(ceiling)})`,
    },
    {
      figure: 'API CPU per request',
      measured: `${cpu(api)} (the token check alone without GraphQL: ${cpu(tokenCheck)})`,
    },
    vs(apollo),
    ...peers.map(vs),
    {
      figure: 'API on PostgreSQL ÷ API on SQLite',
      measured: typeof apiPostgres === 'string' ? apiPostgres : `${ratio(apiPostgres, api)} (${rate(apiPostgres)})`,
    },
    {
      figure: 'Code exchanges (POST /oauth/token)',
      measured: typeof exchanges === 'string' ? exchanges : `${exchanges.requestsPerSecond.toFixed(0)} per second`,
    },
  ];
}
