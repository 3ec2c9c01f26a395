// The portal's backend-for-frontend exactly as main.ts starts it (PORTAL_PORT=0), for
// bench/portal.ts. AUTH_URL and API_URL point at the real servers on loopback.
import { systemClock } from '@latchkey/core';
import { createLogger } from '@latchkey/logging';
import { openDatabase } from '@latchkey/process';
import { startBffServer } from '../../apps/bff/src/main.ts';
import { loadBenchConfig } from '../bench-config.ts';
import { announce } from './target-ready.ts';

const config = loadBenchConfig();
const db = await openDatabase(config, systemClock);
const running = await startBffServer({ config, db, clock: systemClock, logger: createLogger({ level: 'silent' }) });
announce(running.port);
