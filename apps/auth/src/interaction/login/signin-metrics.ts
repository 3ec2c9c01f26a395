import { classifyError } from '@latchkey/http';
import { boundCounter, type CounterChild, type Metrics } from '@latchkey/observability';

/**
 * OB-04: what became of a sign-in (latchkey_sign_ins_total{outcome}). `rate_limited` is counted
 * where the sign-in limits refuse (http/rate-limit.ts), before this handler runs.
 */
export const SignInOutcome = {
  ok: 'ok',
  /** An unknown email or a wrong password (one answer for both). */
  invalidCredentials: 'invalid_credentials',
  /** A form that is not one (fields missing or too long) or a CSRF refusal. */
  invalidRequest: 'invalid_request',
  /** The database (or Redis) could not be reached: 503. */
  unavailable: 'unavailable',
  /** Anything else: a bug, answered 500. */
  error: 'error',
} as const;
type SignInOutcome = (typeof SignInOutcome)[keyof typeof SignInOutcome];

export type SignInCounters = Readonly<Record<SignInOutcome, CounterChild>> & {
  /** Counts a submission that threw, by what the error handler will answer. */
  failed(err: unknown): void;
};

/** The sign-in counter's children, bound once when the router is built (none per request). */
export function signInCounters(metrics: Metrics): SignInCounters {
  const bound = {} as Record<SignInOutcome, CounterChild>;
  for (const outcome of Object.values(SignInOutcome)) bound[outcome] = boundCounter(metrics.signIns, outcome);
  return {
    ...bound,
    failed(err) {
      const kind = classifyError(err);
      if (kind.kind === 'dependency') bound.unavailable.inc();
      else if (kind.kind === 'bug') bound.error.inc();
      else bound.invalid_request.inc();
    },
  };
}
