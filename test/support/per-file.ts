// What a test file sets up once for all its tests (a started system, users, clients, a signed-in
// browser), declared in one line at its top instead of a `let` each and a beforeAll/afterAll:
//
//   const system = useSystem();
//   const { user, client } = perFile(async () => ({ user: await makeUser(system), ... }));
//
// Vitest runs beforeAll after the file's top level, so each name is a stand-in that forwards to
// the real object once it is built (reading one earlier throws). Hooks run in the order they are
// declared, so a later perFile may use an earlier one. Objects only: a string or a number cannot
// be forwarded; keep one in a `let`.
import { afterAll, beforeAll } from 'vitest';

/** Builds the values in beforeAll; `teardown` runs in afterAll when they were built. */
export function perFile<T extends Record<string, object>>(
  setup: () => Promise<T>,
  teardown?: (built: T) => unknown,
): T {
  let built: T | undefined;
  beforeAll(async () => {
    built = await setup();
  });
  if (teardown) {
    afterAll(async () => {
      if (built !== undefined) await teardown(built);
    });
  }
  const real = (key: string | symbol): object => {
    if (built === undefined)
      throw new Error(`perFile: ${String(key)} is built in beforeAll; read it inside a hook or test`);
    return built[key as keyof T] as object;
  };
  return new Proxy({} as T, { get: (_, key) => standIn(() => real(key)) });
}

/** An object that forwards every operation to `real()`; methods run bound to it (private fields). */
function standIn(real: () => object): object {
  return new Proxy(
    {},
    {
      get(_, key) {
        const target = real();
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
      set: (_, key, value) => Reflect.set(real(), key, value),
      has: (_, key) => Reflect.has(real(), key),
      ownKeys: () => Reflect.ownKeys(real()),
      getOwnPropertyDescriptor(_, key) {
        const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
        return descriptor && { ...descriptor, configurable: true };
      },
      getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    },
  );
}
