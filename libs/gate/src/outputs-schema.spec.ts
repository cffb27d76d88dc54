import {
  compileOutputsSchema,
  MAX_OUTPUTS_SCHEMA_LENGTH,
  resultProblems,
  type OutputsValidator,
} from './outputs-schema';

/** SwarmKit's code-review decision skill, as shipped. */
const REVIEW = {
  type: 'object',
  properties: {
    verdict: { type: 'string', enum: ['pass', 'needs-revision'] },
    reasoning: { type: 'string' },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['verdict', 'reasoning'],
  additionalProperties: false,
};

const validator = (schema: unknown): OutputsValidator => {
  const compiled = compileOutputsSchema(schema);
  if (!compiled.ok) throw new Error(compiled.problem);
  return compiled.validate;
};
const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

describe('decision outputs', () => {
  it('accepts a result that conforms, as structured content or as JSON text', () => {
    const validate = validator(REVIEW);
    expect(resultProblems(validate, { structuredContent: { verdict: 'pass', reasoning: 'clean' } })).toEqual([]);
    expect(resultProblems(validate, text('{"verdict":"needs-revision","reasoning":"a test is left"}'))).toEqual([]);
  });

  it('names every field a result gets wrong, at once', () => {
    const problems = resultProblems(
      validator(REVIEW),
      text(JSON.stringify({ verdict: 'maybe', confidence: 2, mood: 'good' })),
    );

    expect(problems).toEqual([
      "/: must have required property 'reasoning'",
      '/: must NOT have additional properties ("mood")',
      '/verdict: must be equal to one of the allowed values ("pass", "needs-revision")',
      '/confidence: must be <= 1',
    ]);
  });

  it('says so when a result is not JSON at all', () => {
    expect(resultProblems(validator(REVIEW), text('Looks good to me.'))).toEqual([
      '/: the result is not JSON, so it cannot be checked against the outputs schema',
    ]);
  });

  it('keeps draft 2020-12 keywords', () => {
    const validate = validator({ type: 'array', prefixItems: [{ type: 'string' }], items: false });
    expect(validate(['a'])).toEqual([]);
    expect(validate(['a', 'b'])).toEqual(['/: must NOT have more than 1 items']);
  });

  it('refuses a schema it cannot compile, that fetches, or that is too large to trust', () => {
    expect(compileOutputsSchema({ type: 'strange' })).toMatchObject({ ok: false });
    expect(compileOutputsSchema({ $ref: 'https://example.com/schema.json' })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('cannot be compiled'),
    });
    expect(compileOutputsSchema({ description: 'x'.repeat(MAX_OUTPUTS_SCHEMA_LENGTH) })).toEqual({
      ok: false,
      problem: `its outputs schema is longer than ${MAX_OUTPUTS_SCHEMA_LENGTH} characters`,
    });
    expect(compileOutputsSchema(['not', 'an', 'object'])).toEqual({
      ok: false,
      problem: 'its outputs schema is not an object',
    });
  });
});
