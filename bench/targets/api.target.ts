// The Latchkey API exactly as main.ts wires it. Silent by default; with BENCH_LOG_FILE set, as it
// is deployed (issue 34): `info` logs (one access line per request) written to that file, and the
// process's metrics registry collecting, with the scrape listener open on loopback.
import { systemClock } from '@latchkey/core';
import { createLogger } from '@latchkey/logging';
import { createObservability } from '@latchkey/observability';
import { openDatabase, serve, serveMetrics } from '@latchkey/process';
import { pino } from 'pino';
import { createApiApp } from '../../apps/api/src/app.ts';
import { loadBenchConfig } from '../bench-config.ts';
import { announce } from './target-ready.ts';

const config = loadBenchConfig();
const logFile = process.env.BENCH_LOG_FILE;
const logger =
  logFile === undefined
    ? createLogger({ level: 'silent' })
    : createLogger({ level: 'info', name: 'api', destination: pino.destination({ dest: logFile, sync: false }) });
const observability = createObservability();
if (logFile !== undefined) await serveMetrics(observability.metrics, 0, '127.0.0.1', logger);
const db = await openDatabase(config, systemClock);
const api = createApiApp({ config, db, clock: systemClock, logger, observability });
announce((await serve(api.handler, 0, '127.0.0.1')).port);
