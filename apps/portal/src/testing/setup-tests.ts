import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { resetSignInRedirect } from '../lib/api-client.ts';
import { clearToasts } from '../lib/toasts.ts';
import { recordConsoleError, takeConsoleErrors } from './console-guard.ts';
import { resetMockDb } from './mocks/db.ts';
import { server } from './mocks/server.ts';

const unhandled: string[] = [];

// Every route is lazy: the first findBy of a file also waits for the route module's import and
// transform, which the 1 s default did not always cover on a busy two-core machine (issue 13).
configure({ asyncUtilTimeout: 5_000 });

beforeAll(() => {
  server.listen({
    // A request no handler describes fails the test, instead of going to the network.
    async onUnhandledFrame({ frame }) {
      unhandled.push(await frame.getUnhandledMessage());
      throw new Error('No MSW handler for this request.');
    },
  });
});

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => recordConsoleError(args));
  // The 401 path leaves the SPA for /bff/login; tests assert the call instead.
  vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
  window.history.replaceState(null, '', '/');
});

afterEach(() => {
  cleanup();
  server.resetHandlers();
  resetMockDb();
  clearToasts();
  resetSignInRedirect();
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.restoreAllMocks();
  expect(takeConsoleErrors(), 'unexpected console.error').toEqual([]);
  expect(unhandled.splice(0), 'requests with no MSW handler').toEqual([]);
});

afterAll(() => server.close());
