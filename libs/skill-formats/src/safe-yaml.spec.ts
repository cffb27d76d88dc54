import type { Problem } from '@skillhub/errors';
import { parseSkill } from './parse-skill';
import { decodeManifestText, MAX_MANIFEST_BYTES, MAX_YAML_ALIASES, parseSafeYaml } from './safe-yaml';
import { loadFixture } from './testing/skill-files';

function parse(text: string, lineOffset = 0): { root: Record<string, unknown> | null; problems: Problem[] } {
  const problems: Problem[] = [];
  const source = parseSafeYaml(text, 'm.yaml', problems, lineOffset);
  return { root: source?.root ?? null, problems };
}

/** A "billion laughs" document: nine levels of nine aliases each. */
function aliasBomb(): string {
  let yaml = 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n';
  for (let level = 1; level < 9; level++) {
    const name = String.fromCharCode(97 + level);
    const previous = String.fromCharCode(96 + level);
    yaml += `${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]\n`;
  }
  return yaml;
}

describe('parseSafeYaml', () => {
  it('parses plain YAML 1.2 core data', () => {
    const { root, problems } = parse(
      'name: x\ncount: 3\nflag: true\nlist: [a, b]\nempty:\nday: 2024-01-01\nyes_no: yes',
    );
    expect(problems).toEqual([]);
    // Core schema: dates and yes/no stay strings (no YAML 1.1 surprises).
    expect(root).toEqual({
      name: 'x',
      count: 3,
      flag: true,
      list: ['a', 'b'],
      empty: null,
      day: '2024-01-01',
      yes_no: 'yes',
    });
  });

  it.each([
    ['a language tag', 'a: !!python/object:os.system x'],
    ['a local tag', 'a: !foo bar'],
    ['a tag of another schema', 'a: !!binary aGVsbG8='],
    ['a YAML 1.1 set', 'a: !!set {x, y}'],
  ])('refuses %s', (_, yaml) => {
    const { root, problems } = parse(yaml);
    expect(root).toBeNull();
    expect(problems).toEqual([
      { path: 'm.yaml', message: expect.stringMatching(/^YAML tag not allowed .* \(line 1\)$/), severity: 'error' },
    ]);
  });

  it('refuses an alias bomb quickly instead of expanding it', () => {
    const started = Date.now();
    const { root, problems } = parse(aliasBomb());
    expect(root).toBeNull();
    expect(problems).toEqual([
      { path: 'm.yaml', message: expect.stringContaining(`at most ${MAX_YAML_ALIASES} expansions`), severity: 'error' },
    ]);
    expect(Date.now() - started).toBeLessThan(5_000); // expanding it would take ages; the bound leaves room for a busy machine
  });

  it('accepts a few aliases', () => {
    expect(parse('base: &b {x: 1}\ncopy: *b').root).toEqual({ base: { x: 1 }, copy: { x: 1 } });
  });

  it('refuses duplicate keys, with the line', () => {
    expect(parse('a: 1\nb: 2\na: 3').problems).toEqual([
      { path: 'm.yaml', message: 'Invalid YAML: Map keys must be unique (line 3)', severity: 'error' },
    ]);
  });

  it('refuses several documents in one file', () => {
    expect(parse('a: 1\n---\nb: 2').problems).toEqual([
      { path: 'm.yaml', message: expect.stringContaining('multiple documents'), severity: 'error' },
    ]);
  });

  it('refuses a collection used as a key', () => {
    expect(parse('? [a, b]\n: c').problems).toEqual([
      { path: 'm.yaml', message: expect.stringContaining('keys must be strings'), severity: 'error' },
    ]);
  });

  it('reports every syntax error, shifted by the line offset', () => {
    const { problems } = parse('a: [1, 2\nb: "x', 1);
    expect(problems.length).toBeGreaterThanOrEqual(2);
    expect(problems.every((problem) => /\(line [23]\)$/.test(problem.message))).toBe(true);
  });

  it.each([
    ['a list', '- a\n- b', 'a list'],
    ['a scalar', 'just text', 'a string'],
    ['an empty document', '', 'nothing'],
  ])('refuses %s at the top level', (_, yaml, got) => {
    expect(parse(yaml).problems).toEqual([
      { path: 'm.yaml', message: `The top level must be a map of fields, got ${got}`, severity: 'error' },
    ]);
  });

  it('keeps __proto__ a plain key', () => {
    const { root } = parse('__proto__: {polluted: true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(root as object, '__proto__')).toBe(true);
  });

  it('locates fields, and the nearest entry of a missing one', () => {
    const problems: Problem[] = [];
    const source = parseSafeYaml('x: 1\nservers:\n  - name: a\n    type: b\n  - name: c\n', 'm.yaml', problems, 10);
    expect(source?.lineOf(['servers', 0, 'type'])).toBe(14);
    expect(source?.lineOf(['servers', 1, 'type'])).toBe(15);
    expect(source?.lineOf(['missing'])).toBeUndefined();
  });
});

describe('parseSafeYaml: quoted values whose later lines are not indented, as PyYAML reads them', () => {
  it("reads SwarmKit's analyze-complaint skill, as shipped, with the prompt PyYAML gives it", () => {
    const result = parseSkill(loadFixture('swarmkit/shipped/analyze-complaint'), { namespace: 'delivstat' });
    expect(result.problems).toEqual([]);
    // The value PyYAML 6 loads (yaml.safe_load): line breaks folded to spaces, the blank line kept as one.
    expect(result.skill?.manifest['implementation']).toEqual({
      type: 'llm_prompt',
      prompt:
        'You are a complaint analysis specialist. Analyze the following customer complaint and extract: ' +
        '1. Issue category (defective product, wrong item, late delivery, damaged in shipping, changed mind, other) ' +
        '2. Severity (low, medium, high, critical) ' +
        '3. Customer sentiment (frustrated, angry, disappointed, neutral, understanding) ' +
        '4. Key facts (product, purchase date, order ID if mentioned, specific damage/defect) ' +
        '5. Any explicit demands or requests made by the customer\n' +
        'Provide a structured analysis with these fields. Be objective and thorough.',
    });
  });

  it.each([
    ['double-quoted', 'a:\n  b: "one\ntwo \\"three\\"\n  four"\nc: 1\n', { a: { b: 'one two "three" four' }, c: 1 }],
    ['single-quoted', "a:\n  b: 'one\ntwo ''three'''\nc: 1\n", { a: { b: "one two 'three'" }, c: 1 }],
    ['in a list item', 'steps:\n  - run: "make\nbuild"\n    name: x\n', { steps: [{ run: 'make build', name: 'x' }] }],
    ['two in one file', 'a: "x\ny"\nb:\n  c: "z\nw"\n', { a: 'x y', b: { c: 'z w' } }],
  ])('reads a %s value to its closing quote', (_, text, expected) => {
    expect(parse(text)).toEqual({ root: expected, problems: [] });
  });

  it('reports lines as they are in the file', () => {
    const problems: Problem[] = [];
    const source = parseSafeYaml('a: "x\ny\nz"\nb: 1\n', 'm.yaml', problems);
    expect(source?.lineOf(['b'])).toBe(4);
  });

  it.each([
    ['no closing quote', 'a: "x\ny\n'],
    ['a document marker inside', 'a: "x\n---\ny"\n'],
    ['a custom tag after it', 'a: "x\ny"\nb: !!python/object:os.system z\n'],
    ['a quoted key over two lines', '"a\nb": c\n'],
  ])('still refuses %s', (_, text) => {
    expect(parse(text).root).toBeNull();
  });
});

describe('decodeManifestText', () => {
  it('refuses an oversized manifest before decoding it', () => {
    const problems: Problem[] = [];
    const content = Buffer.alloc(MAX_MANIFEST_BYTES + 1, 'a');
    expect(decodeManifestText({ path: 'skill.yaml', content }, problems)).toBeNull();
    expect(problems).toEqual([
      {
        path: 'skill.yaml',
        message: `Manifest is ${MAX_MANIFEST_BYTES + 1} bytes; at most ${MAX_MANIFEST_BYTES} are accepted`,
        severity: 'error',
      },
    ]);
  });

  it('refuses bytes that are not UTF-8', () => {
    const problems: Problem[] = [];
    expect(decodeManifestText({ path: 'skill.yaml', content: Buffer.from([0x6e, 0xff, 0xfe]) }, problems)).toBeNull();
    expect(problems[0]?.message).toBe('Manifest is not valid UTF-8 text');
  });

  it('drops a byte-order mark', () => {
    expect(decodeManifestText({ path: 'a', content: Buffer.from('\uFEFFname: x') }, [])).toBe('name: x');
  });
});
