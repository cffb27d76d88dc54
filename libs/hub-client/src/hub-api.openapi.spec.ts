/**
 * The committed OpenAPI document (what hub-api serves: CI's `npm run openapi:check` holds them
 * equal) documents every route as a client needs it: every refusal as a problem document with an
 * example per code, an example for every field that the document's own schemas accept, the
 * multipart field's name, and the token's real format.
 */
import document from './hub-api.openapi.json';
import { checkAnswer, checkSchema, isProblem } from './hub-api.validator';

type Schema = { [keyword: string]: unknown };
interface Media {
  schema?: Schema;
  examples?: Record<string, { value: unknown }>;
}
interface Response {
  description: string;
  content?: Record<string, Media>;
}
interface Operation {
  security?: Array<Record<string, string[]>>;
  requestBody?: { content: Record<string, Media & { encoding?: object }> };
  responses: Record<string, Response>;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const operations = Object.entries(document.paths as unknown as Record<string, Record<string, Operation>>).flatMap(
  ([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      route: `${method} ${path}`,
      path,
      method,
      op: item[method]!,
    })),
);
const schemas = document.components.schemas as Record<string, Schema>;
const REF = '#/components/schemas/';

/** An instance of `schema` made of the examples the document gives for its fields. */
function exampleOf(schema: Schema): unknown {
  if ('example' in schema) return schema.example;
  if (typeof schema.$ref === 'string') return exampleOf(schemas[schema.$ref.slice(REF.length)]!);
  if (Array.isArray(schema.allOf)) return exampleOf(schema.allOf[0] as Schema);
  if (schema.type === 'array') return [exampleOf(schema.items as Schema)];
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, exampleOf(property)]));
}

describe('the OpenAPI document hub-api serves', () => {
  it('documents the bearer token as the opaque shp_ token it is, not a JWT', () => {
    const bearer = document.components.securitySchemes.bearer;
    expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(bearer.bearerFormat).not.toMatch(/jwt/i);
    expect(bearer.bearerFormat).toContain('shp_');
  });

  it.each(operations)('$route documents 500, and every refusal as a ProblemDto with an example per code', ({ op }) => {
    const refusals = Object.entries(op.responses).filter(([status, response]) => {
      // Readiness answers its own report with 503: an answer, not a problem.
      return Number(status) >= 400 && !response.content?.['application/json'];
    });
    expect(refusals.map(([status]) => status)).toContain('500');
    if (op.security?.some((requirement) => 'bearer' in requirement)) {
      expect(refusals.map(([status]) => status)).toContain('401');
    }
    for (const [status, response] of refusals) {
      const problem = response.content?.['application/problem+json'];
      expect(problem?.schema).toEqual({ $ref: `${REF}ProblemDto` });
      const codes = [...response.description.matchAll(/`([A-Z_]+(?:\.[A-Z_]+)?)`/g)].map((match) => match[1]);
      expect(Object.keys(problem?.examples ?? {})).toEqual(codes);
      for (const example of Object.values(problem?.examples ?? {})) {
        expect(isProblem(structuredClone(example.value))).toBe(true);
        expect(example.value).toMatchObject({ status: Number(status) });
      }
    }
  });

  it.each(operations.filter(({ op }) => op.requestBody?.content['multipart/form-data']))(
    '$route names its multipart field: bundle',
    ({ op }) => {
      const form = op.requestBody!.content['multipart/form-data']!;
      expect(form.schema).toMatchObject({
        required: ['bundle'],
        properties: { bundle: { type: 'string', format: 'binary' } },
      });
    },
  );

  it('has an example for every field, and each schema accepts the instance its examples make', () => {
    const missing = Object.entries(schemas).flatMap(([name, schema]) =>
      Object.entries((schema.properties ?? {}) as Record<string, Schema>)
        .filter(([, property]) => {
          const described = 'example' in property || '$ref' in property || 'allOf' in property;
          return !described && !(property.type === 'array' && '$ref' in (property.items as Schema));
        })
        .map(([field]) => `${name}.${field}`),
    );
    expect(missing).toEqual([]);
    for (const name of Object.keys(schemas)) {
      expect({ name, checked: checkSchema(name, exampleOf(schemas[name]!)) }).toEqual({ name, checked: { ok: true } });
    }
  });

  it.each(operations.filter(({ op }) => Object.values(op.responses).some((r) => r.content?.['application/json'])))(
    '$route: its answer example fits what the client checks answers against',
    ({ path, method, op }) => {
      for (const [status, response] of Object.entries(op.responses)) {
        const json = response.content?.['application/json'];
        if (json?.schema)
          expect(checkAnswer(path, method, Number(status), exampleOf(json.schema))).toEqual({ ok: true });
      }
    },
  );

  it('gives every path parameter an example', () => {
    const bare = operations.flatMap(({ route, op }) =>
      ((op as { parameters?: Array<{ in: string; name: string; example?: unknown }> }).parameters ?? [])
        .filter((parameter) => parameter.in === 'path' && parameter.example === undefined)
        .map((parameter) => `${route} {${parameter.name}}`),
    );
    expect(bare).toEqual([]);
  });
});
