// The Latchkey API exactly as main.ts wires it.
import { systemClock } from '@latchkey/core';
import { createLogger } from '@latchkey/logging';
import { openDatabase, serve } from '@latchkey/process';
import { createApiApp } from '../../apps/api/src/app.ts';
import { loadBenchConfig } from '../bench-config.ts';
import { announce } from './target-ready.ts';

const config = loadBenchConfig();
const db = await openDatabase(config, systemClock);
const api = createApiApp({ config, db, clock: systemClock, logger: createLogger({ level: 'silent' }) });
announce((await serve(api.handler, 0, '127.0.0.1')).port);
