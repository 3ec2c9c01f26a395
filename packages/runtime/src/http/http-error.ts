/**
 * An error raised at an HTTP edge that carries its answer: the status and the error code,
 * written once in each subclass. Each app's error handler turns it into its JSON shape.
 */
export abstract class HttpError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  readonly description: string;
  constructor(description: string, options?: ErrorOptions) {
    super(description, options);
    this.name = new.target.name;
    this.description = description;
  }
}
