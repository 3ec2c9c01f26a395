import type { SessionData } from 'express-session';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSystem, type TestSystem } from '#test/support/system.ts';
import { KyselySessionStore } from './session-store.ts';

let system: TestSystem;
let store: KyselySessionStore;
const TTL = 60_000;

beforeAll(async () => {
  system = await startSystem();
  store = new KyselySessionStore(system.db, system.clock, TTL);
});
afterAll(async () => {
  await system?.close();
});

function call<T>(fn: (cb: (err: unknown, value?: T) => void) => void): Promise<T | undefined> {
  return new Promise((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value))));
}

const data = (extra: Partial<SessionData> = {}) =>
  ({ cookie: { originalMaxAge: TTL, maxAge: TTL, httpOnly: true, path: '/' }, ...extra }) as unknown as SessionData;

async function row(sid: string) {
  return system.db.selectFrom('sessions').selectAll().where('sid', '=', sid).executeTakeFirst();
}

describe('KyselySessionStore (DD-7: sessions in the database, no MemoryStore)', () => {
  it('stores, reads back and overwrites a session', async () => {
    await call((cb) => store.set('s1', data({ userId: 'usr_1' }), cb));
    expect(await call<SessionData | null>((cb) => store.get('s1', cb))).toMatchObject({ userId: 'usr_1' });
    await call((cb) => store.set('s1', data({ userId: 'usr_2' }), cb));
    expect(await call<SessionData | null>((cb) => store.get('s1', cb))).toMatchObject({ userId: 'usr_2' });
    const stored = await row('s1');
    expect(Number(stored!.expires_at)).toBe(system.clock.now() + TTL);
  });

  it('an unknown id reads as null', async () => {
    expect(await call((cb) => store.get('nope', cb))).toBeNull();
  });

  it('destroy deletes the row', async () => {
    await call((cb) => store.set('s2', data(), cb));
    await call((cb) => store.destroy('s2', cb));
    expect(await row('s2')).toBeUndefined();
    expect(await call((cb) => store.get('s2', cb))).toBeNull();
  });

  it('an expired session is never served and is deleted on read (injected clock)', async () => {
    await call((cb) => store.set('s3', data({ userId: 'usr_3' }), cb));
    system.clock.advance(TTL + 1);
    expect(await call((cb) => store.get('s3', cb))).toBeNull();
    expect(await row('s3')).toBeUndefined();
  });

  it('touch extends the expiry', async () => {
    await call((cb) => store.set('s4', data(), cb));
    system.clock.advance(TTL / 2);
    await new Promise<void>((resolve) => store.touch('s4', data(), () => resolve()));
    expect(Number((await row('s4'))!.expires_at)).toBe(system.clock.now() + TTL);
  });

  it('a corrupt row reads as no session rather than an error', async () => {
    await system.db
      .insertInto('sessions')
      .values({ sid: 's5', data: '{not json', expires_at: system.clock.now() + TTL })
      .execute();
    expect(await call((cb) => store.get('s5', cb))).toBeNull();
  });

  it('expired rows are swept on a later write', async () => {
    await call((cb) => store.set('old', data(), cb));
    system.clock.advance(11 * 60 * 1000 + TTL);
    await call((cb) => store.set('new', data(), cb));
    expect(await row('old')).toBeUndefined();
    expect(await row('new')).toBeDefined();
  });
});
