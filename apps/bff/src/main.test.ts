import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@latchkey/config';
import { ManualClock } from '@latchkey/core';
import { openDatabase } from '@latchkey/process';
import type { Db } from '@latchkey/db';
import { captureLogger } from '#test/support/loopback.ts';
import { startBffServer } from './main.ts';

let dataDir: string;
let db: Db;
const logs: string[] = [];
const logger = captureLogger(logs, { level: 'info' });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'latchkey-bff-main-'));
  db = await openDatabase(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }), new ManualClock());
});
afterAll(async () => {
  await db?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('startBffServer', () => {
  it('listens on config.portal.port and answers the BFF endpoints', async () => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PORTAL_PORT: '0' });
    const running = await startBffServer({ config, db, clock: new ManualClock(), logger });
    try {
      const response = await fetch(`http://127.0.0.1:${running.port}/bff/session`);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'unauthenticated' });
      expect(logs.join('')).toContain('developer portal listening');
    } finally {
      await running.close();
    }
  });

  it('BF-CK-02 warns when the portal is https but no proxy is trusted', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORTAL_PORT: '0',
      PORTAL_URL: 'https://portal.example.test',
    });
    const running = await startBffServer({ config, db, clock: new ManualClock(), logger });
    await running.close();
    expect(logs.join('')).toContain('TRUST_PROXY is not set');
  });
});
