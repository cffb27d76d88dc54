/**
 * Checks the hub's answers against the schemas of the OpenAPI document it serves
 * (hub-api.openapi.json), compiled once by ajv: a hostile or broken hub cannot hand the runtime or
 * the CLI a shape their code was not written for. Members the hub added after this client was
 * built are dropped rather than refused, so an older client keeps working; an enum value it does
 * not know is refused, because code that switches on a level or a status must not see one.
 */
import { Ajv, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv';
import document from './hub-api.openapi.json';

const ROOT = 'hub-api';
const REF_PREFIX = '#/components/schemas/';
/** OpenAPI's words that are not JSON Schema: shown to readers, not checked. */
const ANNOTATIONS = new Set(['example', 'xml', 'externalDocs', 'discriminator']);

type Schema = { [keyword: string]: unknown };

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One OpenAPI 3.0 schema as JSON Schema draft-07: `nullable` becomes `null` allowed beside it,
 * references point into the root schema, and an object that lists its properties closes on them
 * (so that `removeAdditional` drops the rest).
 */
function toJsonSchema(schema: Schema): Schema {
  const out: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword) || keyword === 'nullable') continue;
    if (keyword === '$ref' && typeof value === 'string' && value.startsWith(REF_PREFIX)) {
      out.$ref = `${ROOT}#/definitions/${value.slice(REF_PREFIX.length)}`;
    } else if (keyword === 'properties' && isSchema(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, isSchema(property) ? toJsonSchema(property) : property]),
      );
    } else if (['allOf', 'anyOf', 'oneOf'].includes(keyword) && Array.isArray(value)) {
      out[keyword] = value.map((item: unknown) => (isSchema(item) ? toJsonSchema(item) : item));
    } else if (['items', 'additionalProperties', 'not'].includes(keyword) && isSchema(value)) {
      out[keyword] = toJsonSchema(value);
    } else {
      out[keyword] = value;
    }
  }
  if (isSchema(out.properties) && out.additionalProperties === undefined) out.additionalProperties = false;
  return schema.nullable === true ? { anyOf: [{ type: 'null' }, out] } : out;
}

const ajv = new Ajv({ strict: true, removeAdditional: true, validateFormats: false });
ajv.addSchema(
  {
    $id: ROOT,
    definitions: Object.fromEntries(
      Object.entries(document.components.schemas).map(([name, schema]) => [name, toJsonSchema(schema)]),
    ),
  },
  ROOT,
);

interface MediaType {
  schema?: Schema;
}
type Operation = { responses: Record<string, { content?: Record<string, MediaType> }> };
const paths = document.paths as unknown as Record<string, Record<string, Operation>>;
const compiled = new Map<string, ValidateFunction | null>();
const components = new Map<string, ValidateFunction>();

/** The JSON schema of this route's answer with this status, or of its answer on success. */
function answerSchema(route: string, method: string, status: number): Schema | null {
  const responses = paths[route]?.[method]?.responses ?? {};
  const json = (code: string) => responses[code]?.content?.['application/json']?.schema ?? null;
  return json(String(status)) ?? json(Object.keys(responses).find((code) => /^2/.test(code) && json(code)) ?? '');
}

function validatorFor(route: string, method: string, status: number): ValidateFunction | null {
  const key = `${method} ${route} ${status}`;
  if (!compiled.has(key)) {
    const schema = answerSchema(route, method, status);
    compiled.set(key, schema ? ajv.compile(toJsonSchema(schema) as AnySchema) : null);
  }
  return compiled.get(key)!;
}

/** `items.1.downloads: must be integer`, for the first error (the one ajv stopped at). */
function describe([error]: ErrorObject[]): string {
  if (!error) return 'invalid';
  const where = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  const message =
    error.keyword === 'enum'
      ? `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`
      : (error.message ?? 'invalid');
  return `${where ? `${where}: ` : ''}${message}`;
}

export type Checked = { ok: true } | { ok: false; reason: string };

/**
 * Checks `value` (parsed JSON) as the answer of `method route` with `status`, where `route` is the
 * document's path template (`/api/v1/skills/{author}/{name}`). Members the schema does not know
 * are removed from `value` in place.
 */
export function checkAnswer(route: string, method: string, status: number, value: unknown): Checked {
  const validate = validatorFor(route, method.toLowerCase(), status);
  if (!validate) throw new Error(`hub-api.openapi.json documents no JSON answer for ${method} ${route}`);
  return validate(value) ? { ok: true } : { ok: false, reason: describe(validate.errors ?? []) };
}

/** Checks `value` against the document's schema `name` (`ProblemDto`), dropping members it does not know. */
export function checkSchema(name: string, value: unknown): Checked {
  let validate = components.get(name);
  if (!validate) components.set(name, (validate = ajv.compile({ $ref: `${ROOT}#/definitions/${name}` })));
  return validate(value) ? { ok: true } : { ok: false, reason: describe(validate.errors ?? []) };
}

/** Whether `value` is a problem document (RFC 9457) as the hub writes them; its extension members stay. */
export const isProblem = (value: unknown): boolean => checkSchema('ProblemDto', value).ok;
