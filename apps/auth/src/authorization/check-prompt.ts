import type { AssembledParams } from './authorize-params.ts';
import { invalidRequest } from './authorize.errors.ts';

/** What a request asks the user to do again even with a live session and an earlier approval. */
export type Prompt = 'login' | 'consent';

/** `prompt=none`, or the interactions asked for (none is an empty list). */
export type PromptRequest = { none: true } | { none: false; interactions: Prompt[] };

/** OI-16: the values of OpenID Connect Core §3.1.2.1 this server acts on, in its metadata. */
export const PROMPT_VALUES = ['none', 'login', 'consent'] as const;

/**
 * `prompt` is a space-separated list (OpenID Connect Core §3.1.2.1): `login` asks for credentials
 * even with a live session (AZ-30), `consent` always shows the approval screen (AZ-31), both may be
 * asked together; `none` (OI-16) shows nothing at all and must be alone. Anything else
 * (`select_account` included: there is no account chooser) is invalid_request (AZ-13).
 */
export function checkPrompt({ params }: AssembledParams): PromptRequest {
  if (params.prompt === undefined) return { none: false, interactions: [] };
  const values = params.prompt.split(' ');
  if (
    !values.every((value): value is (typeof PROMPT_VALUES)[number] =>
      (PROMPT_VALUES as readonly string[]).includes(value),
    )
  ) {
    throw invalidRequest('prompt must be none, login, consent, or login and consent separated by a space.');
  }
  if (new Set(values).size !== values.length) throw invalidRequest('prompt must not repeat a value.');
  if (values.includes('none')) {
    if (values.length > 1) throw invalidRequest('prompt=none must not be combined with another value.');
    return { none: true };
  }
  return { none: false, interactions: values as Prompt[] };
}
