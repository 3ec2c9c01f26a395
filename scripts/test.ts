// `npm test`: type-check, lint, then every test runner. Ends with one line
// `N passed, N failed` (the totals of every runner, with type-check and lint counted as one
// check each) and exits non-zero on any failure; .ci/run relies on both.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Totals {
  passed: number;
  failed: number;
}
const totals: Totals = { passed: 0, failed: 0 };
const reports = mkdtempSync(join(tmpdir(), 'latchkey-test-'));
const extraArgs = process.argv.slice(2);

function run(title: string, command: string, args: string[]): number {
  process.stderr.write(`\n=== ${title} ===\n`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  return result.status ?? 1;
}

function check(title: string, command: string, args: string[]): void {
  if (run(title, command, args) === 0) totals.passed += 1;
  else totals.failed += 1;
}

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  numTotalTestSuites: number;
  numFailedTestSuites: number;
}

function vitest(): void {
  const out = join(reports, 'vitest.json');
  const status = run('vitest', 'vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...extraArgs]);
  if (!existsSync(out)) {
    totals.failed += 1;
    return;
  }
  const report = JSON.parse(readFileSync(out, 'utf8')) as VitestJson;
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  // A file that fails to load has no failed test but fails the run.
  if (status !== 0 && report.numFailedTests === 0) totals.failed += 1;
}

if (extraArgs.length === 0) {
  // The servers share the root project; the browser app has its own (DOM, JSX).
  for (const project of ['tsconfig.json', 'apps/portal/tsconfig.json'].filter((p) => existsSync(p))) {
    check(`type-check (tsc -p ${project})`, 'tsc', ['-p', project]);
  }
  check('lint (eslint)', 'eslint', ['--max-warnings=0', '.']);
}
vitest();
rmSync(reports, { recursive: true, force: true });

console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);
