/**
 * A decision skill's result checked against its `outputs` JSON Schema (SwarmKit: draft 2020-12),
 * with Ajv. Every problem is reported at once, each with the field it is about:
 * `/verdict: must be equal to one of the allowed values ("pass", "fail")`.
 *
 * The result checked is the tool's `structuredContent` when it gives one, else its text parsed
 * as JSON. The schema is the skill's, so it is bounded before Ajv compiles it (Ajv trusts its
 * schemas: a deep or huge one could exhaust the compiler); `format` is not asserted (no format
 * vocabulary is loaded), and a `$ref` outside the schema fails compilation, so nothing is fetched.
 */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020';
import { canonicalJson } from '@skillhub/signing';

export const MAX_OUTPUTS_SCHEMA_LENGTH = 64 * 1024;

/** The problems of one value (empty: it conforms). */
export type OutputsValidator = (value: unknown) => string[];

export type OutputsSchemaReading = { ok: true; validate: OutputsValidator } | { ok: false; problem: string };

export function compileOutputsSchema(schema: unknown): OutputsSchemaReading {
  try {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      return { ok: false, problem: 'its outputs schema is not an object' };
    }
    if (canonicalJson(schema).length > MAX_OUTPUTS_SCHEMA_LENGTH) {
      return { ok: false, problem: `its outputs schema is longer than ${MAX_OUTPUTS_SCHEMA_LENGTH} characters` };
    }
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false, logger: false });
    const check = ajv.compile(schema);
    return { ok: true, validate: (value) => (check(value) ? [] : (check.errors ?? []).map(describe)) };
  } catch (error) {
    return { ok: false, problem: `its outputs schema cannot be compiled: ${(error as Error).message}` };
  }
}

/** What an MCP tool result gives to check: its structured content, else its text as JSON. */
export function resultProblems(
  validate: OutputsValidator,
  result: { structuredContent?: unknown; content?: unknown },
): string[] {
  if (result.structuredContent !== undefined) return validate(result.structuredContent);
  const parts = Array.isArray(result.content) ? (result.content as Array<{ type?: unknown; text?: unknown }>) : [];
  const text = parts.map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
  try {
    return validate(JSON.parse(text));
  } catch {
    return ['/: the result is not JSON, so it cannot be checked against the outputs schema'];
  }
}

function describe(error: ErrorObject): string {
  const at = error.instancePath === '' ? '/' : error.instancePath;
  const params = error.params as { allowedValues?: unknown[]; additionalProperty?: string };
  const detail =
    error.keyword === 'enum' && Array.isArray(params.allowedValues)
      ? ` (${params.allowedValues.map((value) => JSON.stringify(value)).join(', ')})`
      : error.keyword === 'additionalProperties' && params.additionalProperty !== undefined
        ? ` (${JSON.stringify(params.additionalProperty)})`
        : '';
  return `${at}: ${error.message ?? `fails ${error.keyword}`}${detail}`;
}
