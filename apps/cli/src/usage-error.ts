/** Bad command-line input (unknown command, missing or malformed flag): exit status 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
