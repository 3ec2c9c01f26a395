// Whether Redis answers, for the session stores (BF-RD-01): RedisSessionStore tells
// express-session 'disconnect' / 'connect' from it, so that while Redis is down or hung no
// request waits for it and none is mistaken for "not signed in". redis.ts keeps it current:
// every command's outcome, each PING, and the connection's own events.

/** Whether Redis is answering, as far as this process can tell. */
export interface RedisHealth {
  /**
   * True once Redis answered the last command or PING; false while the client is offline or
   * since a command went unanswered for the whole timeout (a hung Redis still accepts
   * connections, so being connected proves nothing). False until the first answer.
   */
  readonly up: boolean;
  /** Called on every change. */
  onChange(listener: (up: boolean) => void): void;
}

export class HealthState implements RedisHealth {
  up = false;
  readonly #listeners: Array<(up: boolean) => void> = [];

  set(up: boolean): void {
    if (this.up === up) return;
    this.up = up;
    for (const listener of this.#listeners) listener(up);
  }

  onChange(listener: (up: boolean) => void): void {
    this.#listeners.push(listener);
  }
}

const healthOf = new WeakMap<object, HealthState>();

/** The state redis.ts updates for a client (created on first use). */
export function healthStateOf(client: object): HealthState {
  let state = healthOf.get(client);
  if (!state) {
    state = new HealthState();
    healthOf.set(client, state);
  }
  return state;
}

/** The guarded client and the raw one it wraps share one state. */
export function shareHealthState(client: object, state: HealthState): void {
  healthOf.set(client, state);
}
