// The operating-system side of a test PostgreSQL cluster: the account it runs as (initdb and
// postgres refuse root), its folder, a free port, and signals to the postmaster and its backends.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

export interface Account {
  uid: number;
  gid: number;
}

export function postgresAccount(): Account | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) {
    throw new Error(
      'running as root but there is no "postgres" user to run the server as (install the postgresql package)',
    );
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Where the cluster's folder goes: the temp folder, or /tmp when the postgres user cannot reach it (TMPDIR under /root). */
export function tempBase(account: Account | undefined): string {
  const base = tmpdir();
  if (!account || base === '/tmp') return base;
  return spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', base]).status === 0 ? base : '/tmp';
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The postmaster's children (backends, background workers). Each calls setsid(), so they are
 * not in the postmaster's process group; they are found through /proc (Linux) instead.
 */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return children;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return children;
}

/** Signals the postmaster and each of its children; SIGSTOP stops the postmaster first so it forks no more. */
export function signalServer(pid: number, signal: NodeJS.Signals): void {
  const send = (target: number) => {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  };
  if (signal === 'SIGCONT') {
    for (const child of childrenOf(pid)) send(child);
    send(pid);
    return;
  }
  send(pid);
  for (const child of childrenOf(pid)) send(child);
}
