/**
 * A dependency (the database or Redis) cannot serve right now. Whoever talks to the
 * dependency wraps its failures in this, so the HTTP edge answers 503 with Retry-After
 * (D-10) without sniffing driver error codes.
 */
export class DependencyUnavailableError extends Error {
  /** Which dependency failed: 'database' or 'redis'. */
  readonly dependency: 'database' | 'redis';

  constructor(dependency: 'database' | 'redis', message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'DependencyUnavailableError';
    this.dependency = dependency;
  }
}
