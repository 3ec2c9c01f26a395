export { accessLogger, createLogger } from './logger.ts';
export type { Logger, LoggerOptions } from './logger.ts';
