// The authorization server exactly as main.ts wires it, for the code-exchange run.
import { systemClock } from '@latchkey/core';
import { createLogger } from '@latchkey/logging';
import { openDatabase, serve } from '@latchkey/process';
import { createAuthApp } from '../../apps/auth/src/app.ts';
import { loadBenchConfig } from '../bench-config.ts';
import { announce } from './target-ready.ts';

const config = loadBenchConfig();
const db = await openDatabase(config, systemClock);
const app = createAuthApp({ config, db, clock: systemClock, logger: createLogger({ level: 'silent' }) });
announce((await serve(app, 0, '127.0.0.1')).port);
