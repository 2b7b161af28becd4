import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { ApiError } from './errors.js';

/** Any valibot schema a route may declare for its body. */
export type BodySchema = v.GenericSchema;

function isValibotSchema(schema: unknown): schema is BodySchema {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    (schema as { kind?: unknown }).kind === 'schema'
  );
}

function describe(issue: v.BaseIssue<unknown>): string {
  const path = issue.path?.map((item) => String(item.key)).join('.');
  if (issue.kind === 'schema' && issue.expected === 'never' && path) {
    return `Unknown field "${path}".`;
  }
  if (issue.kind === 'schema' && issue.received === 'undefined' && path) {
    return `Missing field "${path}".`;
  }
  if (!path || issue.message.startsWith(path)) return issue.message;
  return `${path}: ${issue.message}`;
}

/**
 * Lets routes declare valibot schemas as `schema.body`. Bodies are checked as they are (no
 * coercion, no removal of extra fields): a strict object refuses unknown fields, and the refusal
 * names the first problem, e.g. `Unknown field "price".` or `amount: Expected a number.`
 */
export function installValibotValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema }) => {
    if (!isValibotSchema(schema)) {
      throw new Error('Route schemas must be valibot schemas.');
    }
    return (data: unknown) => {
      const result = v.safeParse(schema, data);
      if (result.success) return { value: result.output };
      return { error: new ApiError(400, 'invalid_request', describe(result.issues[0])) };
    };
  });
}
