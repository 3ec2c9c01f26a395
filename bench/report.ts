import type { Measurement } from './load.ts';

/** Issue 2's goals for the API. */
export const GOALS = { ratioToCeiling: 0.3, ratioToApollo: 2.5, p99Ms: 15 } as const;

interface Report {
  ceiling: Measurement;
  tokenCheck: Measurement;
  api: Measurement;
  apollo: Measurement;
  exchanges: Measurement | string;
}

const pad = (value: string, width: number) => value.padStart(width);

export function printReport({ ceiling, tokenCheck, api, apollo, exchanges }: Report): void {
  const rows = [ceiling, tokenCheck, api, apollo, ...(typeof exchanges === 'string' ? [] : [exchanges])];
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
  if (typeof exchanges === 'string') console.log(`code exchanges: ${exchanges}`);

  const toCeiling = api.requestsPerSecond / ceiling.requestsPerSecond;
  const toApollo = api.requestsPerSecond / apollo.requestsPerSecond;
  const goals = [
    [`API ÷ ceiling ≥ ${GOALS.ratioToCeiling}`, toCeiling.toFixed(2), toCeiling >= GOALS.ratioToCeiling],
    [`API ÷ Apollo ≥ ${GOALS.ratioToApollo}`, toApollo.toFixed(2), toApollo >= GOALS.ratioToApollo],
    [`API p99 < ${GOALS.p99Ms} ms`, `${api.p99} ms`, api.p99 < GOALS.p99Ms],
    ['API answered only 2xx', `${api.failed} failed`, api.failed === 0],
  ] as const;
  console.log(`\nAPI ÷ Apollo: ${toApollo.toFixed(2)}`);
  if (api.cpuMicrosPerRequest !== undefined && apollo.cpuMicrosPerRequest !== undefined && tokenCheck.cpuMicrosPerRequest !== undefined) {
    // CPU per request moves less than req/s when another process shares the machine.
    const layer = api.cpuMicrosPerRequest - tokenCheck.cpuMicrosPerRequest;
    console.log(
      `Server CPU per request: Apollo ÷ API ${(apollo.cpuMicrosPerRequest / api.cpuMicrosPerRequest).toFixed(2)}; ` +
        `API above the token check alone (its GraphQL layer) ${layer.toFixed(1)} µs${layer < 0 ? ' (below zero: within noise)' : ''}`,
    );
  }
  console.log('\nGoals (issue 2):');
  for (const [goal, measured, pass] of goals) console.log(`  ${pass ? 'PASS' : 'FAIL'}  ${goal.padEnd(24)} measured ${measured}`);
}
