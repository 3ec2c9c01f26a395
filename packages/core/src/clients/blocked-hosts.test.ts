// Issue 32: the hosts an operator blocks (`client block --host`). A host is compared as URLs
// carry it, and a block revokes that host's metadata-document clients in the same transaction.
// Over a real database (SQLite; PostgreSQL in node-pg).
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '#test/support/test-database.ts';
import { ManualClock } from '../clock.ts';
import { ValidationFailed } from '../errors.ts';
import {
  blockClientHost,
  hostOfClientId,
  isClientHostBlocked,
  listBlockedClientHosts,
  normalizeClientHost,
  unblockClientHost,
} from './blocked-hosts.ts';
import type { ClientRegistration } from '@latchkey/db';

const clock = new ManualClock(Date.UTC(2026, 11, 2));
const db = useTestDatabase();

async function insertClient(id: string, registration: ClientRegistration): Promise<void> {
  await db
    .insertInto('clients')
    .values({
      id,
      owner_id: null,
      name: 'Agent',
      redirect_uris: '["https://agent.example/cb"]',
      first_party: 0,
      id_token_signed_response_alg: 'RS256',
      public: 1,
      require_pkce: 1,
      scope: 'profile',
      registration,
      metadata_expires_at: registration === 'metadata_document' ? clock.now() + 86_400_000 : null,
      created_at: clock.now(),
      revoked_at: null,
    })
    .execute();
}

async function revokedIds(): Promise<string[]> {
  const rows = await db.selectFrom('clients').select('id').where('revoked_at', 'is not', null).execute();
  // Sorted here, not by the engine: PostgreSQL's collation may order `B` and `b` otherwise.
  return rows.map((row) => row.id).sort();
}

describe('CM-18 a blocked host is a bare host name, compared as URLs carry it', () => {
  it('CM-18 case, a trailing dot and Unicode are normalised: lower case, punycode, no dot', () => {
    expect(normalizeClientHost('App.Example.')).toBe('app.example');
    expect(normalizeClientHost('  app.example ')).toBe('app.example');
    expect(normalizeClientHost('MÜNCHEN.example')).toBe('xn--mnchen-3ya.example');
    expect(normalizeClientHost('xn--mnchen-3ya.example')).toBe('xn--mnchen-3ya.example');
    expect(normalizeClientHost('203.0.113.7')).toBe('203.0.113.7');
  });

  it('CM-18 anything that would name another host than it shows is refused, naming the field', () => {
    const bad = [
      '',
      '.',
      'https://app.example',
      'app.example:443',
      'app.example/x',
      'app.example?x',
      'app.example#x',
      'me@app.example',
      // https treats a backslash as a slash: this would be `a`.
      'a\\b.example',
      // The URL parser drops tabs and newlines: this would be `app.example`.
      'app.\nexample',
      'app.\texample',
      'a b.example',
      '[::1]',
      'app.example..',
    ];
    for (const host of bad) {
      let error: unknown;
      try {
        normalizeClientHost(host);
      } catch (err) {
        error = err;
      }
      expect(error, JSON.stringify(host)).toBeInstanceOf(ValidationFailed);
      expect(error).toMatchObject({ field: 'host' });
    }
  });

  it('CM-18 the host of a client id is its URL’s, as normalizeClientHost writes it', () => {
    expect(hostOfClientId('https://App.Example./client.json')).toBe('app.example');
    expect(hostOfClientId('https://app.example:8443/c.json')).toBe('app.example');
    expect(hostOfClientId('https://münchen.example/c.json')).toBe('xn--mnchen-3ya.example');
    expect(hostOfClientId('lkc_abc')).toBeUndefined();
  });
});

describe('CM-17 blocking a host', () => {
  it('CM-17 revokes every live metadata-document client on the host and no other; idempotent; unblock keeps them revoked', async () => {
    await insertClient('https://blocked.example/a.json', 'metadata_document');
    await insertClient('https://BLOCKED.example:8443/b.json', 'metadata_document');
    await insertClient('https://sub.blocked.example/c.json', 'metadata_document');
    await insertClient('https://fine.example/d.json', 'metadata_document');
    await insertClient('lkc_dynamic0000000000000001', 'dynamic');

    const blocked = await blockClientHost(db, clock, 'Blocked.Example');
    expect(blocked.host).toBe('blocked.example');
    expect([...blocked.revokedClients].sort()).toEqual([
      'https://BLOCKED.example:8443/b.json',
      'https://blocked.example/a.json',
    ]);
    expect(await revokedIds()).toEqual(['https://BLOCKED.example:8443/b.json', 'https://blocked.example/a.json']);
    expect(await isClientHostBlocked(db, 'blocked.example')).toBe(true);
    expect(await isClientHostBlocked(db, 'BLOCKED.EXAMPLE.')).toBe(true);
    expect(await isClientHostBlocked(db, 'sub.blocked.example')).toBe(false);

    clock.advance(1000);
    expect(await blockClientHost(db, clock, 'blocked.example')).toEqual({
      host: 'blocked.example',
      revokedClients: [],
    });
    // The first block's time stays.
    expect(await listBlockedClientHosts(db)).toEqual([{ host: 'blocked.example', createdAt: Date.UTC(2026, 11, 2) }]);

    // Inside a caller's transaction, the block is part of it: rolled back with it.
    await db
      .transaction()
      .execute(async (trx) => {
        await blockClientHost(trx, clock, 'fine.example');
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await isClientHostBlocked(db, 'fine.example')).toBe(false);
    expect(await revokedIds()).not.toContain('https://fine.example/d.json');

    expect(await unblockClientHost(db, 'BLOCKED.example')).toBe(true);
    expect(await unblockClientHost(db, 'blocked.example')).toBe(false);
    expect(await listBlockedClientHosts(db)).toEqual([]);
    expect(await revokedIds()).toEqual(['https://BLOCKED.example:8443/b.json', 'https://blocked.example/a.json']);
  });
});
