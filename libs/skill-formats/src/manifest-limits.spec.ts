import { stringify } from 'yaml';
import type { Problem } from '@skillhub/errors';
import { parseKazmaManifestObject } from './kazma-manifest.parser';
import {
  findUnstorableText,
  MAX_DECLARED_TOOLS,
  MAX_MANIFEST_DEPTH,
  MAX_MANIFEST_NODES,
  MAX_MCP_SERVERS,
  measureValue,
  measureYaml,
  unstorableReason,
} from './manifest-limits';
import { parseSkill } from './parse-skill';
import { parseSafeYaml } from './safe-yaml';
import { skillFiles } from './testing/skill-files';

const KAZMA = {
  name: 'weather',
  version: '1.0.0',
  description: 'Forecasts.',
  author: 'acme-labs',
  license: 'MIT',
  entry_point: 'weather.py',
};

function parseYaml(text: string): Problem[] {
  const problems: Problem[] = [];
  parseSafeYaml(text, 'm.yaml', problems);
  return problems;
}

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('unstorableReason', () => {
  it.each([
    ['a NUL', 'a\u0000b', /NUL/],
    ['a lone high surrogate', 'a\uD800b', /U\+D800/],
    ['a lone low surrogate', '\uDC01', /U\+DC01/],
    ['a high surrogate at the end', 'ok\uDBFF', /U\+DBFF/],
  ])('refuses %s', (_, text, reason) => {
    expect(unstorableReason(text)).toMatch(reason);
  });

  it.each([
    ['plain text', 'weather'],
    ['a surrogate pair', 'rain 🌧 today'],
    ['other controls', 'a\tb\u0001'],
  ])('accepts %s', (_, text) => {
    expect(unstorableReason(text)).toBeNull();
  });
});

describe('findUnstorableText', () => {
  it('names every bad string and key by its path', () => {
    const found = findUnstorableText({ a: ['ok', 'x\u0000'], ['k\uD800']: 1, b: { c: '\uDFFF' } });
    expect(found.map((f) => [f.path, f.key])).toEqual([
      [['a', 1], false],
      [['k\uD800'], true],
      [['b', 'c'], false],
    ]);
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    expect(findUnstorableText(nested(100_000))).toEqual([]);
  });
});

describe('manifest shape', () => {
  it('counts nodes and depth alike on YAML text and on its value', () => {
    const value = { a: [1, 2, { b: 'c' }], d: 'e' };
    expect(measureValue(value)).toEqual({ nodes: 10, depth: 3 });
    expect(measureYaml(stringify(value))).toEqual({ nodes: 10, depth: 3 });
  });

  it('measures 100,000 levels of flow nesting without composing them', () => {
    const text = `a: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    const started = performance.now();
    expect(measureYaml(text).depth).toBeGreaterThan(MAX_MANIFEST_DEPTH);
    expect(parseYaml(text)).toEqual([
      expect.objectContaining({ message: expect.stringContaining(`deeper than ${MAX_MANIFEST_DEPTH} levels`) }),
    ]);
    // A bound against a blow-up (composing would overflow the stack; a quadratic walk takes
    // minutes), not a speed figure: ~1 s here, twice that on a busy CI machine.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('refuses a manifest with more nodes than the limit before composing it', () => {
    const text = Array.from({ length: MAX_MANIFEST_NODES }, (_, i) => `k${i}: v`).join('\n');
    expect(parseYaml(text)).toEqual([
      expect.objectContaining({ message: expect.stringContaining(`more than ${MAX_MANIFEST_NODES} values`) }),
    ]);
  });

  it('accepts nesting up to the limit', () => {
    expect(parseYaml(stringify(nested(MAX_MANIFEST_DEPTH - 1)))).toEqual([]);
  });

  it('counts what aliases expand to', () => {
    const items = Array.from({ length: 200 }, (_, i) => `i${i}`).join(', ');
    const uses = Array.from({ length: 30 }, (_, i) => `u${i}: *a`).join('\n');
    expect(parseYaml(`a: &a [${items}]\n${uses}\n`)).toEqual([
      expect.objectContaining({ message: expect.stringContaining('more than') }),
    ]);
  });
});

describe('text PostgreSQL cannot store, in manifests', () => {
  it('names the YAML field holding an escaped NUL, with its line', () => {
    expect(parseYaml('name: ok\ndescription: "a\\0b"\n')).toEqual([
      { path: 'm.yaml#description', message: 'description holds a NUL character (U+0000) (line 2)', severity: 'error' },
    ]);
  });

  it('names a key holding an escaped lone surrogate', () => {
    expect(parseYaml('tools:\n  "t\\uD800": {}\n')).toEqual([
      // The path quotes the key as JSON, so the problem document itself stays valid Unicode.
      expect.objectContaining({
        path: 'm.yaml#tools["t\\ud800"]',
        message: expect.stringMatching(/^The key of .*U\+D800/),
      }),
    ]);
  });

  it('names the field of a submitted JSON manifest', () => {
    const { skill, problems } = parseKazmaManifestObject({ ...KAZMA, tags: ['ok', 'x\uDC00'] });
    expect(skill).toBeNull();
    expect(problems).toEqual([expect.objectContaining({ path: 'skill_manifest.yaml#tags[1]' })]);
  });

  it('refuses a submitted JSON manifest nested past the limit', () => {
    const { problems } = parseKazmaManifestObject({ ...KAZMA, config_schema: nested(MAX_MANIFEST_DEPTH + 5) });
    expect(problems).toEqual([expect.objectContaining({ message: expect.stringContaining('deeper than') })]);
  });
});

describe('declared tools and servers', () => {
  const tools = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, { description: 'x' }]));
  const server = (i: number) => ({ name: `s${i}`, type: 'stdio', command: `npx -y pkg${i}@1.0.0` });

  it(`accepts ${MAX_DECLARED_TOOLS} tools and refuses one more, without reading them`, () => {
    expect(parseKazmaManifestObject({ ...KAZMA, tools: tools(MAX_DECLARED_TOOLS) }).skill?.tools).toHaveLength(
      MAX_DECLARED_TOOLS,
    );
    const { skill, problems } = parseKazmaManifestObject({ ...KAZMA, tools: tools(MAX_DECLARED_TOOLS + 1) });
    expect(skill).toBeNull();
    expect(problems).toEqual([
      expect.objectContaining({
        path: 'skill_manifest.yaml#tools',
        message: expect.stringContaining('declares 257 tools'),
      }),
    ]);
  });

  it(`refuses more than ${MAX_MCP_SERVERS} MCP servers`, () => {
    const servers = Array.from({ length: MAX_MCP_SERVERS + 1 }, (_, i) => server(i));
    const { problems } = parseKazmaManifestObject({ ...KAZMA, mcp_servers: servers });
    expect(problems).toContainEqual(
      expect.objectContaining({
        path: 'skill_manifest.yaml#mcp_servers',
        message: expect.stringContaining('33 servers'),
      }),
    );
  });

  it('refuses the 24 KB bundle declaring 9,000 tools on its size alone', () => {
    const files = skillFiles({
      'skill_manifest.yaml': stringify({ ...KAZMA, tools: tools(9_000) }),
      'weather.py': 'print(1)\n',
    });
    const { skill, problems } = parseSkill(files);
    expect(skill).toBeNull();
    // One problem: no tool was read (each would have cost its text checks).
    expect(problems).toEqual([expect.objectContaining({ message: expect.stringContaining('more than') })]);
  });
});
