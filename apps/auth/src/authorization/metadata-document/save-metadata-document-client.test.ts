// CM-03, CM-13: core's store of document clients on both engines: instances fetching the same
// document at once all succeed on one row; a refetch updates it; a revoked one is never revived.
import { Conflict, revokeClient, saveMetadataDocumentClient } from '@latchkey/core';
import { describe, expect, it } from 'vitest';
import { useSystem } from '#test/support/system.ts';
import { documentClientRow } from './metadata-document.fixture.ts';

const system = useSystem();

async function originsOf(clientId: string): Promise<string[]> {
  const rows = await system.db
    .selectFrom('client_origins')
    .select('origin')
    .where('client_id', '=', clientId)
    .orderBy('origin')
    .execute();
  return rows.map((row) => row.origin);
}

describe('CM-03 saveMetadataDocumentClient', () => {
  it('CM-03 ten instances storing the same document at once: all succeed, one row, its origins once', async () => {
    const clientId = 'https://race.example/client.json';
    const doc = { clientId, clientName: 'Race App', redirectUris: ['https://race.example/cb', 'http://127.0.0.1/cb'] };
    const expiresAt = system.clock.now() + 60_000;
    const clients = await Promise.all(
      Array.from({ length: 10 }, () => saveMetadataDocumentClient(system.db, system.clock, doc, expiresAt)),
    );
    expect(new Set(clients.map((client) => client.id))).toEqual(new Set([clientId]));
    const count = await system.db
      .selectFrom('clients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', '=', clientId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    expect(await originsOf(clientId)).toEqual(['http://127.0.0.1', 'https://race.example']);
  });

  it('CM-03 a refetched document replaces name, redirect URLs, links, origins and expiry; created_at stays', async () => {
    const clientId = 'https://update.example/client.json';
    const first = await saveMetadataDocumentClient(
      system.db,
      system.clock,
      { clientId, clientName: 'Old', redirectUris: ['https://update.example/old'] },
      1,
    );
    system.clock.advance(1000);
    const second = await saveMetadataDocumentClient(
      system.db,
      system.clock,
      {
        clientId,
        clientName: 'New',
        redirectUris: ['https://cb.update.example/new'],
        clientUri: 'https://update.example',
        logoUri: 'https://update.example/logo.png',
      },
      2,
    );
    expect(second).toMatchObject({
      name: 'New',
      redirectUris: ['https://cb.update.example/new'],
      clientUri: 'https://update.example',
      logoUri: 'https://update.example/logo.png',
      createdAt: first.createdAt,
      public: true,
      requirePkce: true,
      registration: 'metadata_document',
    });
    expect(Number((await documentClientRow(system, clientId))?.metadata_expires_at)).toBe(2);
    expect(await originsOf(clientId)).toEqual(['https://cb.update.example']);
  });
});

describe('CM-13 a revoked document client is never revived', () => {
  it('CM-13 saving its document again: Conflict, and the row and its origins are unchanged', async () => {
    const clientId = 'https://revoked.example/client.json';
    await saveMetadataDocumentClient(
      system.db,
      system.clock,
      { clientId, clientName: 'Revoked', redirectUris: ['https://revoked.example/cb'] },
      5,
    );
    await revokeClient(system.db, system.clock, clientId);
    await expect(
      saveMetadataDocumentClient(
        system.db,
        system.clock,
        { clientId, clientName: 'Again', redirectUris: ['https://other.example/cb'] },
        system.clock.now() + 60_000,
      ),
    ).rejects.toBeInstanceOf(Conflict);
    const row = await documentClientRow(system, clientId);
    expect(row).toMatchObject({ name: 'Revoked', redirect_uris: JSON.stringify(['https://revoked.example/cb']) });
    expect(row?.revoked_at).not.toBeNull();
    expect(Number(row?.metadata_expires_at)).toBe(5);
    expect(await originsOf(clientId)).toEqual(['https://revoked.example']);
  });
});
