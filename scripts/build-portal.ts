// Builds the portal's single-page app when its sources changed since the last build, so a
// second `npm start` skips the build. The fingerprint covers every source file and the lockfile.
// The build goes to a folder of its own and is then laid over dist/: hashed files first, the
// manifest and index.html last, each renamed into place. A server already running on the old
// build (its preloads read from the old manifest) keeps finding the files it names, and a failed
// build leaves dist/ as it was.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const portal = join(root, 'apps', 'portal');
const dist = join(portal, 'dist');
const stamp = join(dist, '.build-fingerprint');

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir).sort()) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.dist-next-')) continue;
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
  const next = join(portal, `.dist-next-${process.pid}`);
  try {
    const result = spawnSync(
      join(portal, 'node_modules', '.bin', 'vite'),
      ['build', '--logLevel', 'warn', '--outDir', next, '--emptyOutDir'],
      { cwd: portal, stdio: ['ignore', 2, 2] },
    );
    if (result.status !== 0) throw new Error(`portal build failed (exit ${result.status})`);
    layOver(next, dist);
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
  writeFileSync(stamp, current);
  return true;
}

/** Pages and the manifest name the other files: they go last, each by a rename. */
const NAMING = /(\.html|manifest\.json)(\.gz|\.br)?$/;

function layOver(from: string, to: string): void {
  const built = [...files(from)].map((file) => relative(from, file));
  for (const file of [...built.filter((f) => !NAMING.test(f)), ...built.filter((f) => NAMING.test(f))]) {
    const target = join(to, file);
    mkdirSync(dirname(target), { recursive: true });
    const staged = `${target}.${process.pid}.tmp`;
    cpSync(join(from, file), staged);
    renameSync(staged, target);
  }
  // Files of earlier builds no server started in the last hour can still be reading.
  const keep = new Set(built);
  for (const file of files(to)) {
    const name = relative(to, file);
    if (!keep.has(name) && name !== '.build-fingerprint' && statSync(file).mtimeMs < Date.now() - 3_600_000)
      rmSync(file);
  }
}

if (import.meta.main) ensurePortalBuilt();
