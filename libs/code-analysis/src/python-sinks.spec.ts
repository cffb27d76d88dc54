import type { CapabilityKind, FileAnalysis, IssueKind } from './analysis.types';
import { loadCodeAnalyzer, type CodeAnalyzer } from './code-analyzer';
import { canonicalName, ruleFor } from './python-rules';
import { NO_SINK_MODULES, SINKS, STDLIB_SINKS, type SinkKind } from './python-sinks';
import { PYTHON_STDLIB_MODULES } from './python-stdlib-modules';

let analyzer: CodeAnalyzer;

beforeAll(async () => {
  analyzer = await loadCodeAnalyzer();
});

const analyze = (source: string): FileAnalysis =>
  analyzer.analyzeFile('scripts/tool.py', Buffer.from(source, 'utf8'), 'python');

const topLevel = (module: string): string => module.split('.')[0] as string;

describe('the table of standard library sinks', () => {
  const tabled = new Set(Object.keys(STDLIB_SINKS).map(topLevel));

  it.each(PYTHON_STDLIB_MODULES)('classifies %s', (module) => {
    const alias = canonicalName(module);
    const classified = tabled.has(module) || NO_SINK_MODULES.has(module) || (alias !== module && tabled.has(alias));
    expect(classified).toBe(true);
    expect(tabled.has(module) && NO_SINK_MODULES.has(module)).toBe(false);
  });

  it('names only modules of the standard library', () => {
    const stdlib = new Set(PYTHON_STDLIB_MODULES);
    expect([...tabled, ...NO_SINK_MODULES].filter((module) => !stdlib.has(module))).toEqual([]);
  });

  it('has a rule for every sink', () => {
    const missing = [...SINKS.keys()].filter((name) => !ruleFor(canonicalName(name.replace(/\*$/, 'member'))));
    expect(missing).toEqual([]);
  });
});

/** One sink of each kind, spelled the ways a name reaches a call: imported from, aliased, looked up by a constant. */
const SPELLINGS = (module: string, member: string, call: string): [string, string][] => [
  [`from ${module} import ${member}`, `from ${module} import ${member}\n${call.replace('F', member)}\n`],
  [`import ${module} as p`, `import ${module} as p\n${call.replace('F', `p.${member}`)}\n`],
  [`getattr(${module}, "${member}")`, `import ${module}\n${call.replace('F', `getattr(${module}, "${member}")`)}\n`],
];

const REPRESENTATIVES: {
  kind: SinkKind;
  module: string;
  member: string;
  call: string;
  finds: IssueKind | CapabilityKind;
}[] = [
  { kind: 'resolves-name', module: 'pydoc', member: 'locate', call: 'def f(x):\n    F(x)', finds: 'dynamic-code' },
  { kind: 'imports', module: 'pkgutil', member: 'get_loader', call: 'def f(x):\n    F(x)', finds: 'dynamic-code' },
  {
    kind: 'evaluates',
    module: 'doctest',
    member: 'run_docstring_examples',
    call: 'def f(x):\n    F(x, {})',
    finds: 'dynamic-code',
  },
  { kind: 'unpickles', module: 'shelve', member: 'open', call: 'def f(x):\n    F(x)', finds: 'dynamic-code' },
  { kind: 'spawns', module: 'ensurepip', member: 'bootstrap', call: 'F()', finds: 'process_exec' },
  {
    kind: 'native',
    module: 'importlib.machinery',
    member: 'ExtensionFileLoader',
    call: 'def f(x, y):\n    F(x, y)',
    finds: 'native-code',
  },
];

describe.each(REPRESENTATIVES)('a sink that $kind ($module.$member)', ({ kind, module, member, call, finds }) => {
  it('is in the table as such', () => {
    expect(SINKS.get(`${module}.${member}`)).toBe(kind);
  });

  it.each(SPELLINGS(module, member, call))('is found through %s', (_name, source) => {
    const analysis = analyze(source);
    const found = [
      ...analysis.issues.map((issue) => issue.kind),
      ...analysis.capabilities.map((use) => use.capability),
    ];
    expect(found).toContain(finds);
  });
});
