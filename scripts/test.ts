// `npm test`: type-check, lint, the import-cycle check, the rules catalogue check
// (scripts/check-rules.ts), then every test runner (Vitest, then Playwright's end-to-end suite).
// Ends with one line `N passed, N failed` (the totals of every runner, with type-check, lint, the
// cycle check and the rules check counted as one check each) and exits non-zero on any failure;
// .ci/run relies on both.
// Arguments are Vitest filters: with any, only Vitest runs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBrowser } from './ensure-browser.ts';

interface Totals {
  passed: number;
  failed: number;
}
const totals: Totals = { passed: 0, failed: 0 };
const reports = mkdtempSync(join(tmpdir(), 'latchkey-test-'));
const extraArgs = process.argv.slice(2);

function run(title: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): number {
  process.stderr.write(`\n=== ${title} ===\n`);
  const result = spawnSync(command, args, { stdio: 'inherit', env });
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
  const status = run('vitest', 'vitest', [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...extraArgs,
  ]);
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

/** Every TypeScript file of ours, for the import-cycle check. */
const SOURCE_GLOBS = [
  'apps/*/src/**/*.{ts,tsx}',
  'packages/*/src/**/*.ts',
  'scripts/**/*.ts',
  'test/**/*.ts',
  'bench/**/*.ts',
  'e2e/**/*.ts',
  'examples/**/*.ts',
];

if (extraArgs.length === 0) {
  // The servers share the root project; the browser app has its own (DOM, JSX).
  for (const project of ['tsconfig.json', 'apps/portal/tsconfig.json'].filter((p) => existsSync(p))) {
    check(`type-check (tsc -p ${project})`, 'tsc', ['-p', project]);
  }
  check('lint (eslint)', 'eslint', ['--max-warnings=0', '.']);
  // No import cycle between files, type-only imports included, and so none between the
  // packages (@latchkey/* resolves to each package's src/index.ts). dpdm expands the globs.
  check('import cycles (dpdm)', 'dpdm', [
    '--no-tree',
    '--no-warning',
    '--circular',
    '--exit-code',
    'circular:1',
    ...SOURCE_GLOBS,
  ]);
  check('rules catalogue (docs/rules.md)', 'node', ['scripts/check-rules.ts']);
}

interface PlaywrightJson {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}

/** The end-to-end suite (playwright.config.ts starts the system itself); counted from its JSON report. */
function playwright(): void {
  let chromium: string | undefined;
  try {
    process.stderr.write('\n=== browser for the end-to-end tests ===\n');
    chromium = ensureBrowser();
    process.stderr.write(chromium ? `Chromium: ${chromium}\n` : "Chromium: Playwright's own\n");
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    totals.failed += 1;
    return;
  }
  const out = join(reports, 'playwright.json');
  const env = { ...process.env, E2E_JSON_REPORT: out, E2E_CHROMIUM: chromium ?? '' };
  const status = run('playwright (end-to-end)', 'playwright', ['test'], env);
  if (!existsSync(out)) {
    totals.failed += 1;
    return;
  }
  const { stats } = JSON.parse(readFileSync(out, 'utf8')) as PlaywrightJson;
  // A test that passed on CI's one retry counts as passed; Playwright's own summary names it flaky.
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  // A failed global setup (the system did not start) fails the run with no failed test.
  if (status !== 0 && stats.unexpected === 0) totals.failed += 1;
}

vitest();
if (extraArgs.length === 0) playwright();
rmSync(reports, { recursive: true, force: true });

console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);
