#!/usr/bin/env node
// Entry point of every `npm <script>`. It must run on the machine's Node (>= 20), so it is
// plain JavaScript with no dependencies. It makes sure Node 24 and pnpm (DD-10) exist (project-locally
// under .tools/ when the machine lacks them), installs the workspace's dependencies when the
// lockfile changed, then runs the real command with Node 24. Everything it prints goes to
// stderr so that `npm run --silent cli -- ...` keeps stdout for JSON.
import { spawnSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tools = join(root, '.tools');
const NODE_MAJOR = 24;
const PNPM_VERSION = '10.34.8';

function say(message) {
  process.stderr.write(`[latchkey] ${message}\n`);
}

function npmInstallTools(packages) {
  mkdirSync(tools, { recursive: true });
  say(`installing ${packages.join(', ')} into .tools/ (one time)`);
  const result = spawnSync(
    'npm',
    ['install', '--prefix', tools, '--no-audit', '--no-fund', '--loglevel=error', ...packages],
    { stdio: ['ignore', 2, 2], shell: process.platform === 'win32' },
  );
  if (result.status !== 0) {
    say(`npm install ${packages.join(' ')} failed (exit ${result.status})`);
    process.exit(1);
  }
}

function ensureNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= NODE_MAJOR) return process.execPath;
  const pkg = `node-${process.platform}-${process.arch}`;
  const bin = join(tools, 'node_modules', pkg, 'bin', 'node');
  if (!existsSync(bin)) npmInstallTools([`${pkg}@${NODE_MAJOR}`]);
  return bin;
}

function ensurePnpm() {
  const cli = join(tools, 'node_modules', 'pnpm', 'bin', 'pnpm.cjs');
  if (!existsSync(cli)) npmInstallTools([`pnpm@${PNPM_VERSION}`]);
  return cli;
}

/** Runs `pnpm install` only when the lockfile or a manifest changed since the last install. */
function ensureDependencies(node, pnpm, env) {
  const lock = join(root, 'pnpm-lock.yaml');
  const stamp = join(root, 'node_modules', '.latchkey-install');
  const fingerprint = createHash('sha256')
    .update(existsSync(lock) ? readFileSync(lock) : '')
    .update(process.version)
    .digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint) return;
  say('installing dependencies with pnpm');
  const args = [pnpm, 'install', '--reporter=append-only'];
  if (process.env.CI && existsSync(lock)) args.push('--frozen-lockfile');
  const result = spawnSync(node, args, { cwd: root, env, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) {
    say(`pnpm install failed (exit ${result.status})`);
    process.exit(1);
  }
  writeFileSync(stamp, fingerprint);
}

const [command = 'start', ...args] = process.argv.slice(2);
const node = ensureNode();
const pnpm = ensurePnpm();
const shims = join(tools, 'shims');
mkdirSync(shims, { recursive: true });
const pnpmShim = join(shims, 'pnpm');
const shimText = `#!/bin/sh\nexec "${node}" "${pnpm}" "$@"\n`;
if (!existsSync(pnpmShim) || readFileSync(pnpmShim, 'utf8') !== shimText) {
  writeFileSync(pnpmShim, shimText, { mode: 0o755 });
}
const env = {
  ...process.env,
  PATH: [dirname(node), shims, join(root, 'node_modules', '.bin'), process.env.PATH].join(':'),
};
ensureDependencies(node, pnpm, env);

const entries = {
  start: [node, ['scripts/start.ts', ...args]],
  test: [node, ['scripts/test.ts', ...args]],
  // The tests that need no server and no database engine (vitest.config.ts, UNIT) and the portal's page tests.
  'test:unit': [node, [pnpm, 'exec', 'vitest', 'run', '--project', 'unit', '--project', 'portal', ...args]],
  cli: [node, ['apps/cli/src/main.ts', ...args]],
  bench: [node, ['bench/run.ts', ...args]],
  dev: [node, ['scripts/dev.ts', ...args]],
  serve: [node, ['scripts/serve.ts', ...args]],
  run: [node, [pnpm, 'run', ...args]],
};
const entry = entries[command];
if (!entry) {
  say(`unknown command "${command}"; expected one of ${Object.keys(entries).join(', ')}`);
  process.exit(2);
}
const child = spawn(entry[0], entry[1], { cwd: root, env, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 128 + 1 : 1));
});
