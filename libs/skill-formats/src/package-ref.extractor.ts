/**
 * Reads which npm or PyPI package an MCP server's command runs, so the certifier can probe the
 * registry for it (security check C8): `npx -y @scope/pkg@1.2.3`, `uvx pkg==1.0`
 * (`python -m mod` names a module, never a package).
 * Commands that run local code (`node`, `docker`, `deno`, a path) name no package.
 */
import { valid as validSemver } from 'semver';
import type { PackageRef } from './skill.model';

type Registry = PackageRef['registry'];

interface Runner {
  registry: Registry;
  /** argv words that start the runner, e.g. `['npm', 'exec']`. */
  words: readonly string[];
  /** Options naming the package; the positional word is then a command (`npx -p pkg cmd`, `uvx --from pkg cmd`). */
  packageOptions: readonly string[];
  /** Options naming packages installed beside the main one (`uvx --with extra pkg`); they run too. */
  extraPackageOptions: readonly string[];
  /** Options whose value must be skipped (it is not a package). */
  valueOptions: readonly string[];
}

const NPM_VALUE_OPTIONS = ['-c', '--call', '--registry', '--cache', '--prefix', '--userconfig', '-w', '--workspace'];
const UV_VALUE_OPTIONS = [
  '-p',
  '--python',
  '--index',
  '--index-url',
  '--extra-index-url',
  '--default-index',
  '--find-links',
  '-f',
  '--with-requirements',
  '--with-editable',
  '-c',
  '--constraints',
  '--overrides',
  '--directory',
  '--project',
  '--config-file',
  '--cache-dir',
];

const RUNNERS: readonly Runner[] = [
  ...[['npx'], ['npm', 'exec'], ['npm', 'x'], ['pnpm', 'dlx'], ['pnpx'], ['yarn', 'dlx'], ['bunx'], ['bun', 'x']].map(
    (words): Runner => ({
      registry: 'npm',
      words,
      packageOptions: ['-p', '--package'],
      extraPackageOptions: [],
      valueOptions: NPM_VALUE_OPTIONS,
    }),
  ),
  ...[['uvx'], ['uv', 'tool', 'run']].map((words): Runner => ({
    registry: 'pypi',
    words,
    packageOptions: ['--from'],
    extraPackageOptions: ['--with'],
    valueOptions: UV_VALUE_OPTIONS,
  })),
  {
    registry: 'pypi',
    words: ['pipx', 'run'],
    packageOptions: ['--spec'],
    extraPackageOptions: [],
    valueOptions: ['--python', '--index-url', '--pip-args'],
  },
];

const NPM_NAME = /^(?:@[a-z0-9~-][\w.~-]*\/)?[a-z0-9~-][\w.~-]*$/i;
const NPM_NAME_MAX = 214;
const PYPI_SPEC = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(?:\[[\w.,\s-]*\])?(.*)$/s;
/** What may follow a PyPI name: nothing, a version specifier, `@ version` or an environment marker. */
const PYPI_SPEC_REST = /^(?:$|[\s=<>!~@;])/;
const PYPI_EXACT_VERSION = /^(?:===?|@)\s*([0-9][0-9A-Za-z.+!-]*)$/;
/** Longest package spec looked at; anything longer is not a registry name. */
const SPEC_MAX = 300;

/** Splits a command line on whitespace, keeping '...' and "..." quoted parts together (no escapes). */
export function splitCommandLine(command: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (const character of command) {
    if (quote) {
      if (character === quote) quote = null;
      else word += character;
    } else if (character === '"' || character === "'") {
      quote = character;
      word ??= '';
    } else if (/\s/.test(character)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + character;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** The packages an argv runs, with their exact versions when pinned. */
export function extractPackageRefs(argv: readonly string[]): PackageRef[] {
  const source = argv.join(' ');
  const words = [commandName(argv[0] ?? ''), ...argv.slice(1)];
  const runner = RUNNERS.find((candidate) => candidate.words.every((word, index) => words[index] === word));
  if (runner) {
    return packageSpecs(words.slice(runner.words.length), runner).flatMap(
      (spec) => packageRefFromSpec(spec, runner.registry, source) ?? [],
    );
  }
  // `python -m <module>` names a module, not a package: the bundle's own, or one the host installed.
  return [];
}

/** PEP 503 normalized name: lowercase, runs of `-`, `_`, `.` become one `-`. */
export function normalizePypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** `/usr/local/bin/npx`, `npx.cmd` → `npx`. */
function commandName(word: string): string {
  const base = word.slice(Math.max(word.lastIndexOf('/'), word.lastIndexOf('\\')) + 1);
  return base.replace(/\.(?:cmd|exe)$/i, '');
}

/** Package specs in a runner's arguments: those named by option, and the first positional word. */
function packageSpecs(args: readonly string[], runner: Runner): string[] {
  const specs: string[] = [];
  let positionalIsCommand = false;
  for (let i = 0; i < args.length; i++) {
    const [option, inlineValue] = splitOption(args[i] as string);
    if (option === '--' || !option.startsWith('-')) {
      const positional = option === '--' ? args[i + 1] : args[i];
      if (positional !== undefined && !positionalIsCommand) specs.unshift(positional);
      break;
    }
    const namesPackage = runner.packageOptions.includes(option);
    if (namesPackage || runner.extraPackageOptions.includes(option)) {
      const value = inlineValue ?? args[++i];
      if (value !== undefined) specs.push(value);
      positionalIsCommand ||= namesPackage;
    } else if (runner.valueOptions.includes(option) && inlineValue === null) {
      i++;
    }
  }
  return specs;
}

function splitOption(arg: string): [string, string | null] {
  const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
  return equals === -1 ? [arg, null] : [arg.slice(0, equals), arg.slice(equals + 1)];
}

/** A package spec (`name@1.2.3`, `name==1.0`) as `registry` reads it; null when it names no registry package. */
export function packageRefFromSpec(spec: string, registry: Registry, source: string): PackageRef | null {
  if (spec.length > SPEC_MAX) return null;
  return registry === 'npm' ? parseNpmSpec(spec, source) : parsePypiSpec(spec, source);
}

/** `@scope/name@1.2.3`: the version follows the last `@` that is not the scope's. */
function parseNpmSpec(spec: string, source: string): PackageRef | null {
  const at = spec.lastIndexOf('@');
  const [name, range] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, null];
  if (name.length > NPM_NAME_MAX || !NPM_NAME.test(name)) return null;
  const exact = range !== null && validSemver(range) === range;
  return { registry: 'npm', name, version: exact ? range : null, source };
}

/** `name`, `name==1.0`, `name@1.0` (uvx), `name[extra]>=1`: only `==`/`===`/`@` pin a version. */
function parsePypiSpec(spec: string, source: string): PackageRef | null {
  const match = PYPI_SPEC.exec(spec);
  if (!match || !PYPI_SPEC_REST.test(match[2] ?? '')) return null;
  const pinned = PYPI_EXACT_VERSION.exec((match[2] ?? '').trim());
  return { registry: 'pypi', name: normalizePypiName(match[1] as string), version: pinned?.[1] ?? null, source };
}
