import { PageError } from '../../http/page-error.ts';

/**
 * The request cannot be trusted to name where to go (SO-02, OI-18): a 400 page on this server,
 * never a redirect, and the session is left as it was. Input is never echoed.
 */
export class InvalidLogoutRequest extends PageError {
  constructor(detail: string) {
    super(400, 'This sign-out link is not valid', detail, {
      advice:
        'Latchkey could not send you back to the application safely, so it stopped here. You are still signed in; to sign out, use Sign out on the Latchkey home page.',
    });
    this.name = 'InvalidLogoutRequest';
  }
}
