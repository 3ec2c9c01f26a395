import express from 'express';
import type { AuthDeps } from './deps.ts';

/** Builds the authorization server. Does no I/O; main.ts and tests listen on it. */
export function createAuthApp(deps: AuthDeps): express.Express {
  const app = express();
  void deps;
  return app;
}
