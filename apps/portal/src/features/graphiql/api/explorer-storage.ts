/**
 * Where the Explorer keeps its query, tabs, history, variables and theme (issue 14, SO-08).
 * GraphiQL writes them to localStorage under `graphiql:` by default, where the next person
 * using the browser would find them. Here they live under one key prefix per signed-in user,
 * are removed for every other user whenever the Explorer opens, and are removed for everyone
 * on sign-out. No GraphiQL import: the frame and the signed-out page use this without loading
 * the Explorer's chunk.
 */

const PREFIX = 'latchkey:explorer:';
/** GraphiQL's own namespace, written before this scoping existed. */
const GRAPHIQL_DEFAULT_PREFIX = 'graphiql:';

/** The shape GraphiQL's `storage` prop takes (@graphiql/toolkit `Storage`). */
export interface ExplorerStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  clear(): void;
  readonly length: number;
}

function keysOf(backing: Storage): string[] {
  return Array.from({ length: backing.length }, (_, i) => backing.key(i)).filter((k): k is string => k !== null);
}

function removeWhere(backing: Storage, matches: (key: string) => boolean): void {
  for (const key of keysOf(backing)) if (matches(key)) backing.removeItem(key);
}

function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined; // storage disabled: GraphiQL then keeps everything in memory only
  }
}

/**
 * The signed-in user's Explorer storage. Opening it forgets what any other user left in this
 * browser (a session that expired without a sign-out).
 */
export function explorerStorage(userId: string, backing: Storage | undefined = browserStorage()): ExplorerStorage {
  const scope = `${PREFIX}${encodeURIComponent(userId)}:`;
  if (backing) {
    removeWhere(backing, (key) => key.startsWith(GRAPHIQL_DEFAULT_PREFIX) || (key.startsWith(PREFIX) && !key.startsWith(scope)));
  }
  return {
    getItem: (key) => backing?.getItem(scope + key) ?? null,
    setItem: (key, value) => backing?.setItem(scope + key, value),
    removeItem: (key) => backing?.removeItem(scope + key),
    clear: () => {
      if (backing) removeWhere(backing, (key) => key.startsWith(scope));
    },
    get length() {
      return backing ? keysOf(backing).filter((key) => key.startsWith(scope)).length : 0;
    },
  };
}

/** Sign-out: nothing of any user's Explorer stays in this browser. */
export function forgetExplorerData(backing: Storage | undefined = browserStorage()): void {
  if (backing) removeWhere(backing, (key) => key.startsWith(PREFIX) || key.startsWith(GRAPHIQL_DEFAULT_PREFIX));
}
