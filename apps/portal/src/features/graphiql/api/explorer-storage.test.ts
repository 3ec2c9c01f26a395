import { beforeEach, describe, expect, it } from 'vitest';
import { explorerStorage, forgetExplorerData } from './explorer-storage.ts';

/** A Web Storage over a Map, as the browser's localStorage behaves. */
class MemoryStorage implements Storage {
  readonly #items = new Map<string, string>();
  get length() {
    return this.#items.size;
  }
  key(index: number) {
    return [...this.#items.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.#items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.#items.set(key, String(value));
  }
  removeItem(key: string) {
    this.#items.delete(key);
  }
  clear() {
    this.#items.clear();
  }
  keys() {
    return [...this.#items.keys()].sort();
  }
}

describe('SO-08 the Explorer’s storage belongs to one signed-in user', () => {
  let backing: MemoryStorage;
  beforeEach(() => {
    backing = new MemoryStorage();
  });

  it('keeps each user’s query under their own prefix, and reads back only their own', () => {
    const ada = explorerStorage('usr_ada', backing);
    ada.setItem('graphiql:query', '{ secretOfAda }');
    expect(ada.getItem('graphiql:query')).toBe('{ secretOfAda }');
    expect(ada.length).toBe(1);
    expect(backing.keys()).toEqual(['latchkey:explorer:usr_ada:graphiql:query']);
  });

  it('opening the Explorer as another user forgets what the previous one left (an expired session)', () => {
    explorerStorage('usr_ada', backing).setItem('graphiql:tabState', '{"tabs":["{ secretOfAda }"]}');
    backing.setItem('graphiql:query', '{ leftByAnOlderPortal }');
    backing.setItem('unrelated', 'kept');
    const bob = explorerStorage('usr_bob', backing);
    expect(bob.getItem('graphiql:tabState')).toBeNull();
    expect(backing.keys()).toEqual(['unrelated']);
  });

  it('forgetExplorerData (sign-out) removes every user’s Explorer data and GraphiQL’s own keys', () => {
    explorerStorage('usr_ada', backing).setItem('graphiql:history', '[1]');
    backing.setItem('graphiql:theme', 'dark');
    backing.setItem('unrelated', 'kept');
    forgetExplorerData(backing);
    expect(backing.keys()).toEqual(['unrelated']);
  });

  it('clear() of one user leaves the others alone', () => {
    const ada = explorerStorage('usr_ada', backing);
    ada.setItem('graphiql:query', 'a');
    backing.setItem('latchkey:explorer:usr_bob:graphiql:query', 'b');
    ada.clear();
    expect(backing.keys()).toEqual(['latchkey:explorer:usr_bob:graphiql:query']);
  });

  it('without storage (disabled in the browser) it keeps nothing and never throws', () => {
    const none = explorerStorage('usr_ada', undefined);
    none.setItem('graphiql:query', 'x');
    expect(none.getItem('graphiql:query')).toBeNull();
    expect(none.length).toBe(0);
    expect(() => forgetExplorerData(undefined)).not.toThrow();
  });
});
