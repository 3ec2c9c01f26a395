// `node bench/profile.ts [target] [seconds]`: CPU profile of one target (default: api) under
// bench/run.ts's load (or, as `as-latchkey:<row>` / `as-peer:<row>`, an authorization server under
// one of bench/authorization-server.ts's rows: refresh, introspection, exchange, signIn), to see
// where a request's time goes. Prints the functions with the most self time and leaves the .cpuprofile (Chrome DevTools, speedscope) in a temporary folder.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latchkeySide, measureRow, peerSide, type RowKind } from './authorization-server.ts';
import { createBenchData } from './bench-data.ts';
import { measureSteady } from './load.ts';
import { spawnTarget } from './spawn-target.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const target = process.argv[2] ?? 'api';
const seconds = Number(process.argv[3] ?? 10);
const profileDir = mkdtempSync(join(tmpdir(), 'latchkey-profile-'));
const profiling = ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
/** `as-latchkey:<row>` or `as-peer:<row>` (issue 38): one authorization server under one of its rows. */
const asTarget = /^as-(latchkey|peer):(refresh|introspection|exchange|signIn)$/.exec(target);

const requests = asTarget ? await profileAuthorizationServer() : await profileGraphql();
const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'))!;
summarize(JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as Profile, requests);
console.log(`\nprofile: ${join(profileDir, file)}`);

/** A GraphQL target under bench/run.ts's load; the number of requests answered. */
async function profileGraphql(): Promise<number> {
  const data = await createBenchData(0);
  try {
    const server = await spawnTarget(target, data.env, profiling);
    try {
      const measured = await measureSteady(
        target,
        {
          url: `${server.url}${target === 'apollo' ? '/' : '/graphql'}`,
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${data.pat}` },
          body: JSON.stringify({ query: '{ profile { name } }' }),
        },
        { warmup: 2, measure: seconds },
      );
      return measured.ok + measured.failed;
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(data.dataDir, { recursive: true, force: true });
  }
}

/** Latchkey's or node-oidc-provider's authorization server under one row, repeated for about `seconds`. */
async function profileAuthorizationServer(): Promise<number> {
  const [, who, row] = asTarget!;
  const side =
    who === 'peer'
      ? await peerSide('node-oidc-provider', profiling)
      : await latchkeySide('Latchkey', undefined, profiling);
  let answered = 0;
  try {
    const until = Date.now() + seconds * 1000;
    for (let round = 0; Date.now() < until; round++) {
      const measured = await measureRow(side, row as RowKind, round);
      answered += measured.ok + measured.failed;
    }
  } finally {
    await side.close();
  }
  return answered;
}

/** Where a sample's code lives: an npm package, a workspace folder, Node itself, or native/VM work. */
function packageOf(functionName: string, url: string): string {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(url);
  if (inModules) return inModules[1]!;
  const inRepo = /^file:\/\/.*?\/((?:apps|packages)\/[^/]+|bench)\//.exec(url);
  if (inRepo) return inRepo[1]!;
  if (url.startsWith('node:')) return 'node';
  return functionName || '(native)';
}

function summarize(profile: Profile, requests: number): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const groups = new Map<string, number>();
  let total = 0;
  for (const [i, id] of profile.samples.entries()) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = url
      ? ` ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(apps|packages|bench)\//, '$1/')}:${lineNumber + 1}`
      : '';
    const key = `${functionName || '(anonymous)'}${where}`;
    const group = packageOf(functionName, url);
    const delta = profile.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + delta);
    groups.set(group, (groups.get(group) ?? 0) + delta);
    total += delta;
  }
  const line = ([name, us]: [string, number]) =>
    `${((us / total) * 100).toFixed(1).padStart(5)}%  ${(us / requests).toFixed(2).padStart(6)}  ${name}`;
  console.log(`${target}: ${requests} requests. Self time by package (share of samples, µs per request):`);
  for (const entry of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(line(entry));
  console.log('\nTop functions by self time:');
  for (const entry of [...self].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(line(entry));
}
