import type { AssembledParams } from './authorize-params.ts';
import { invalidRequest } from './authorize.errors.ts';

export type Prompt = 'login' | 'consent';

/**
 * As documented: `login` asks for credentials even with a live session (AZ-30), `consent`
 * always shows the approval screen (AZ-31). Anything else, `none` included, is
 * invalid_request (AZ-13).
 */
export function checkPrompt({ params }: AssembledParams): Prompt | undefined {
  const prompt = params.prompt;
  if (prompt === undefined) return undefined;
  if (prompt === 'login' || prompt === 'consent') return prompt;
  throw invalidRequest('prompt must be login or consent.');
}
