import { InvalidRequest, ValidationFailed } from '@latchkey/core';
import type { z } from 'zod';

/**
 * Parses a JSON body with a zod schema. Unknown fields are dropped (the schemas are plain
 * objects, which strip them); the first problem is reported with the field it concerns, in
 * the `validation_failed` shape the portal shows next to that field.
 */
export function validateBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidRequest('The request body must be a JSON object.');
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = typeof issue.path[0] === 'string' ? issue.path[0] : 'body';
  throw new ValidationFailed(field, issue.message);
}
