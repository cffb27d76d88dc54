import { canonicalJson, NotCanonicalJsonError } from '@skillhub/signing';
import { canonicalToolJson, isToolDefinitionHash, toolDefinitionHash } from './tool-definition-hash';

// Expected values computed outside this code base, with Python:
// json.dumps(d, sort_keys=True, separators=(',', ':'), ensure_ascii=False) and hashlib.sha256.
const READ_FILE = {
  name: 'read_file',
  description: 'Reads a file — UTF-8 “quoted” text\n',
  inputSchema: {
    type: 'object',
    required: ['path'],
    properties: {
      path: { type: 'string', minLength: 1 },
      encoding: { enum: ['utf8', 'latin1'], default: 'utf8' },
      Z: { type: 'integer', maximum: 10 },
    },
    additionalProperties: false,
  },
};
const READ_FILE_JSON =
  '{"description":"Reads a file — UTF-8 “quoted” text\\n","inputSchema":{"additionalProperties":false,"properties":{"Z":{"maximum":10,"type":"integer"},"encoding":{"default":"utf8","enum":["utf8","latin1"]},"path":{"minLength":1,"type":"string"}},"required":["path"],"type":"object"},"name":"read_file"}';
const READ_FILE_HASH = '831bd2494a0c12b75221d635a0d74a46dad977a1e4766776c970c49ab12e7279';

describe('canonicalToolJson / toolDefinitionHash', () => {
  it('sorts keys recursively, keeps array order, has no whitespace (independent vector)', () => {
    expect(canonicalToolJson(READ_FILE)).toBe(READ_FILE_JSON);
    expect(toolDefinitionHash(READ_FILE)).toBe(READ_FILE_HASH);
    expect(toolDefinitionHash({ name: 'x' })).toBe('0229d37e33daae149bf40543a5ce1db4459d10f830d5139279aa2bfd5f6485a1');
  });

  it('does not depend on key order', () => {
    const reordered = {
      inputSchema: {
        additionalProperties: false,
        properties: {
          Z: { maximum: 10, type: 'integer' },
          path: { minLength: 1, type: 'string' },
          encoding: { default: 'utf8', enum: ['utf8', 'latin1'] },
        },
        type: 'object',
        required: ['path'],
      },
      description: READ_FILE.description,
      name: 'read_file',
    };
    expect(toolDefinitionHash(reordered)).toBe(READ_FILE_HASH);
  });

  it('changes with any hashed field, array order included', () => {
    const hashes = new Set([
      toolDefinitionHash(READ_FILE),
      toolDefinitionHash({ ...READ_FILE, name: 'read_files' }),
      toolDefinitionHash({ ...READ_FILE, description: 'Reads a file.' }),
      toolDefinitionHash({ ...READ_FILE, description: undefined }),
      toolDefinitionHash({ ...READ_FILE, inputSchema: { ...READ_FILE.inputSchema, required: [] } }),
      toolDefinitionHash({
        ...READ_FILE,
        inputSchema: {
          ...READ_FILE.inputSchema,
          properties: { ...READ_FILE.inputSchema.properties, encoding: { enum: ['latin1', 'utf8'], default: 'utf8' } },
        },
      }),
    ]);
    expect(hashes.size).toBe(6);
  });

  it('hashes name, description, inputSchema and annotations, and nothing else', () => {
    const withExtras = { ...READ_FILE, title: 'Read', outputSchema: {} };
    const annotated = { ...READ_FILE, annotations: { readOnlyHint: true } };
    expect(toolDefinitionHash(withExtras)).toBe(READ_FILE_HASH);
    expect(toolDefinitionHash(annotated)).not.toBe(READ_FILE_HASH);
    expect(canonicalToolJson(annotated)).toContain('"annotations":{"readOnlyHint":true}');
  });

  it('distinguishes an absent description from an empty one', () => {
    expect(canonicalToolJson({ name: 'x' })).toBe('{"name":"x"}');
    expect(canonicalToolJson({ name: 'x', description: '' })).toBe('{"description":"","name":"x"}');
  });

  it('is 64 lowercase hex', () => {
    expect(isToolDefinitionHash(READ_FILE_HASH)).toBe(true);
    expect(isToolDefinitionHash(READ_FILE_HASH.toUpperCase())).toBe(false);
    expect(isToolDefinitionHash(READ_FILE_HASH.slice(1))).toBe(false);
    expect(isToolDefinitionHash(undefined)).toBe(false);
  });

  it.each([
    ['a non-string name', { name: 1 }],
    ['a non-string description', { name: 'x', description: null }],
    ['a non-object definition', null],
  ])('refuses %s', (_label, def) => {
    expect(() => canonicalToolJson(def as never)).toThrow(NotCanonicalJsonError);
  });
});

describe('the canonical JSON a tool is hashed over', () => {
  it("is the certificates' canonical JSON of the picked fields", () => {
    const def = { name: 'x', description: 'd', inputSchema: { b: [1, 'é'], a: null }, annotations: { z: true } };
    expect(canonicalToolJson(def)).toBe(canonicalJson(def));
    const listed = { ...def, title: 'T', outputSchema: { type: 'object' } };
    expect(canonicalToolJson(listed)).toBe(canonicalJson(def));
  });

  it('sorts by UTF-16 code units, as RFC 8785 does', () => {
    // U+FB01 sorts after U+1F600 in UTF-16 (0xFB01 > 0xD83D) though not in code points.
    const def = { name: 'x', inputSchema: { '\uFB01': 1, '\u{1F600}': 2 } };
    expect(canonicalToolJson(def)).toBe('{"inputSchema":{"\u{1F600}":2,"\uFB01":1},"name":"x"}');
  });

  it('keeps an own "__proto__" key as data', () => {
    const def = { name: 'x', inputSchema: JSON.parse('{"__proto__":{"x":1},"a":1}') as unknown };
    expect(canonicalToolJson(def)).toBe('{"inputSchema":{"__proto__":{"x":1},"a":1},"name":"x"}');
  });

  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  let deep: unknown = 1;
  for (let i = 0; i <= 100; i += 1) deep = [deep];

  it.each([
    // Absent and undefined are one thing for the four picked fields, but not inside them.
    ['an undefined member of the input schema', { type: 'object', default: undefined }],
    ['undefined in an array', { enum: [1, undefined] }],
    ['a sparse array', { enum: [1, , 3] }], // eslint-disable-line no-sparse-arrays
    ['NaN', { maximum: Number.NaN }],
    ['a function', { f: () => 1 }],
    ['a bigint', { n: BigInt(1) }],
    ['a Date', { d: new Date(0) }],
    ['a cycle', cyclic],
    ['nesting past the depth cap', deep],
  ])('refuses a definition holding %s', (_label, inputSchema) => {
    expect(() => toolDefinitionHash({ name: 'x', inputSchema })).toThrow(NotCanonicalJsonError);
  });

  it('accepts a shared (non-cyclic) reference twice', () => {
    const shared = { type: 'string' };
    expect(canonicalToolJson({ name: 'x', inputSchema: { a: shared, b: shared } })).toBe(
      '{"inputSchema":{"a":{"type":"string"},"b":{"type":"string"}},"name":"x"}',
    );
  });
});
