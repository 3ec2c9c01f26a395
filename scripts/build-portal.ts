// Builds the portal's single-page app when its sources changed since the last build, so a
// second `npm start` skips the build. The fingerprint covers every source file and the lockfile.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const portal = join(root, 'apps', 'portal');
const dist = join(portal, 'dist');
const stamp = join(dist, '.build-fingerprint');

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir).sort()) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

function fingerprint(): string {
  const hash = createHash('sha256');
  for (const file of files(portal)) hash.update(relative(portal, file)).update(readFileSync(file));
  hash.update(readFileSync(join(root, 'pnpm-lock.yaml')));
  return hash.digest('hex');
}

/** Returns false when there is no portal to build yet. Throws when the build fails. */
export function ensurePortalBuilt(): boolean {
  if (!existsSync(join(portal, 'package.json'))) return false;
  const current = fingerprint();
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === current) return true;
  process.stderr.write('[latchkey] building the portal (vite build)\n');
  const result = spawnSync(join(portal, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { cwd: portal, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new Error(`portal build failed (exit ${result.status})`);
  writeFileSync(stamp, current);
  return true;
}

if (import.meta.main) ensurePortalBuilt();
