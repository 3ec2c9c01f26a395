/**
 * An error the error handler renders as an HTML page with this status. `detail` is shown to
 * the user, so it is written here, never built from input. It never redirects: errors that
 * may go to a client's redirect URI are the authorization endpoint's own (authorize.errors.ts).
 */
export class PageError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  /** Optional guidance shown under the message. */
  readonly advice: string | undefined;
  constructor(status: number, title: string, detail: string, options?: ErrorOptions & { advice?: string }) {
    super(`${title}: ${detail}`, options);
    this.name = 'PageError';
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.advice = options?.advice;
  }
}

/** CS-01: a form post whose CSRF token is missing, from another session, or for another request. */
export class CsrfRejected extends PageError {
  constructor() {
    super(
      403,
      'This form has expired',
      'We could not verify that this request came from this browser window. Go back, reload the page and try again.',
    );
    this.name = 'CsrfRejected';
  }
}
