import { ErrorAnswer } from '@placeport/contract/routes';
import type * as v from 'valibot';

/** The parts of a valibot schema the bridge reads (valibot keeps them on every schema object). */
interface Node {
  type: string;
  entries?: Record<string, Node>;
  wrapped?: Node;
  value?: Node;
  literal?: unknown;
  options?: readonly unknown[];
  pipe?: readonly { type: string }[];
}

/**
 * The JSON Schema of a contract's answer, for Fastify's serialisation: an object lists its fields
 * in order, requires all but the optional ones and sends nothing else. Covers the kinds the route
 * schemas use (objects, records, strings, numbers, integers, booleans, literals, picklists,
 * optional and nullable); any other kind is a mistake in the contract and throws at start-up.
 */
export function jsonSchemaOf(schema: v.GenericSchema): Record<string, unknown> {
  return toJsonSchema(schema as unknown as Node);
}

function toJsonSchema(node: Node): Record<string, unknown> {
  switch (node.type) {
    case 'strict_object': {
      const entries = Object.entries(node.entries!);
      return {
        type: 'object',
        additionalProperties: false,
        required: entries.filter(([, field]) => field.type !== 'optional').map(([name]) => name),
        properties: Object.fromEntries(entries.map(([name, field]) => [name, toJsonSchema(field)])),
      };
    }
    case 'record':
      return { type: 'object', additionalProperties: toJsonSchema(node.value!) };
    case 'optional':
      return toJsonSchema(node.wrapped!);
    case 'nullable': {
      const inner = toJsonSchema(node.wrapped!);
      return { ...inner, type: [inner.type, 'null'] };
    }
    case 'number':
      return { type: node.pipe?.some((step) => step.type === 'integer') ? 'integer' : 'number' };
    case 'string':
    case 'boolean':
      return { type: node.type };
    case 'literal':
      return { type: typeof node.literal, const: node.literal };
    case 'picklist':
      return { type: 'string', enum: [...node.options!] };
    default:
      throw new Error(`The contract's "${node.type}" schema has no JSON Schema here.`);
  }
}

const ERROR_RESPONSE = jsonSchemaOf(ErrorAnswer);

/** Response schemas for a route: its success body, and the error shape for 4xx and 5xx. */
export function responses(ok: v.GenericSchema): Record<string, object> {
  return { 200: jsonSchemaOf(ok), '4xx': ERROR_RESPONSE, '5xx': ERROR_RESPONSE };
}
