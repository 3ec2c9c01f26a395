import { StatusError } from '@latchkey/core';

/**
 * An error raised at an HTTP edge (not a rule of core) that carries its answer: the status and
 * the error code, written once in each subclass. Each app's error handler turns it into its
 * shape; classifyError tells it from a DomainError, which a page answers as a bug.
 */
export abstract class HttpError extends StatusError {}
