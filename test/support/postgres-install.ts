// Where the PostgreSQL binaries are, installing the Debian package on CI (root, no PostgreSQL).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

function findBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  // PostgreSQL 15 is what CI and production documentation name; any other is a fallback.
  const chosen = versions.includes('15') ? '15' : versions[0];
  return chosen === undefined ? undefined : join(root, chosen, 'bin');
}

let installed: string | undefined;

/** The PostgreSQL bin folder; installs the Debian package when missing and running as root (CI). */
export function postgresBinDir(): string {
  if (installed) return installed;
  let bin = findBinDir();
  if (!bin) {
    if (process.getuid?.() !== 0) {
      throw new Error(
        'PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres) and this process is not root, ' +
          'so the test harness cannot install it: run `apt-get install -y postgresql` (Debian/Ubuntu) first.',
      );
    }
    const apt = (args: string[]) => {
      process.stderr.write(`[postgres harness] apt-get ${args.join(' ')}\n`);
      const result = spawnSync('apt-get', args, {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
      if (result.status !== 0) {
        throw new Error(
          `apt-get ${args.join(' ')} failed (status ${result.status ?? result.signal}); install postgresql by hand`,
        );
      }
    };
    apt(['update']);
    // Waits for another process's dpkg lock (a concurrent install of redis-server) instead of failing.
    apt(['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=300', 'postgresql']);
    bin = findBinDir();
    if (!bin) throw new Error('apt-get installed postgresql but /usr/lib/postgresql/*/bin/postgres is still missing');
    process.stderr.write(`[postgres harness] using ${bin}\n`);
  }
  installed = bin;
  return bin;
}
