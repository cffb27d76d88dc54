/**
 * What the JavaScript and TypeScript modules of a bundle export to each other: a pre-pass over
 * every file, so that `./util.js` exporting `require('child_process').execSync` (or re-exporting
 * the module, or a function that returns it) is followed into the file that calls it. Only what
 * resolves to a module or a global (a reference, or a function returning one) is kept: those are
 * what the rules judge. The analyser of each file is then given the result (AnalyzerContext.localModules).
 */
import type { Language } from './analysis.types';
import type { Grammars, SyntaxNode } from './grammars';
import {
  bundledModules,
  collectProgram,
  identifierName,
  stringValue,
  type JsProgram,
  type Scope,
} from './javascript-program';
import { JsValues, UNKNOWN, type JsValue } from './javascript-values';
import { firstSyntaxError } from './syntax';

/** What one module of the bundle exports that the analysis follows. */
export interface LocalModule {
  /** `module.exports = X`, `export * from 'm'`: the exports object itself; members not named below are read from it. */
  whole: JsValue | null;
  /** `exports.x = …`, `export const x = …`, `export default …`, `export { a as x }`, `export { x } from 'm'`. */
  names: ReadonlyMap<string, JsValue>;
}

/** The bundle's modules that export something worth following, by their path in the bundle. */
export type LocalModules = ReadonlyMap<string, LocalModule>;

export interface SourceFile {
  path: string;
  text: string;
  language: Extract<Language, 'javascript' | 'typescript' | 'tsx'>;
}

/** Extensions a specifier may leave out, in the order Node and TypeScript's resolvers try them. */
const EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.tsx', '.jsx', '.json'];

/** Chains of re-exports followed; longer ones are left unresolved (and their calls judged as unknown). */
const MAX_CHAIN = 16;

/** Parses per file at most, cycles redone included: past that, exports are left unresolved. */
const PARSES_PER_FILE = 4;

/** What every JavaScript and TypeScript file of a bundle exports, as far as it is a module or a global. */
export function collectLocalModules(grammars: Grammars, files: readonly SourceFile[]): LocalModules {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const done = new Map<string, LocalModule | null>();
  const pending = new Set<string>();
  let parses = 0;
  // Set when a summary reads a module still being summarised (a cycle): such a summary is not kept, but redone.
  let cut = false;
  const summary = (path: string): LocalModule | null => {
    if (done.has(path)) return done.get(path) ?? null;
    const file = byPath.get(path);
    if (!file) return null;
    if (pending.has(path) || pending.size >= MAX_CHAIN || parses >= PARSES_PER_FILE * files.length) {
      cut = true;
      return null;
    }
    pending.add(path);
    parses++;
    const outer = cut;
    cut = false;
    let module: LocalModule | null = null;
    try {
      module = exportsOf(grammars, file, (specifier) => {
        const target = resolveSpecifier(path, specifier, byPath);
        const exported = target ? summary(target) : null;
        return exported ? moduleValue(exported) : null;
      });
    } catch {
      // A file this pass cannot read exports nothing to follow; its own analysis still judges it.
    } finally {
      pending.delete(path);
    }
    if (!cut || pending.size === 0) done.set(path, module);
    cut ||= outer;
    return module;
  };
  const modules = new Map<string, LocalModule>();
  for (const file of files) {
    // A file with neither `export` nor `exports` exports nothing.
    if (!/\bexports?\b/.test(file.text)) continue;
    const module = summary(file.path);
    if (module) modules.set(file.path, module);
  }
  return modules;
}

/** What `specifier`, written in the file at `from`, loads: a module of the bundle, as what it exports; null for any other. */
export function localModule(modules: LocalModules, from: string, specifier: string): JsValue | null {
  const path = resolveSpecifier(from, specifier, modules);
  const module = path ? modules.get(path) : undefined;
  return module ? moduleValue(module) : null;
}

/** The bundle path a relative specifier names (`./util` → `server/util.js`), trying the extensions a resolver tries. */
function resolveSpecifier(from: string, specifier: string, paths: ReadonlyMap<string, unknown>): string | null {
  if (!/^\.{1,2}\//.test(specifier)) return null;
  const parts = from.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  const base = parts.join('/');
  // TypeScript compiled to ESM imports `./util.js` from `util.ts`.
  const stems = /\.[cm]?js$/.test(base) ? [base, base.replace(/\.([cm]?)js$/, '.$1ts')] : [base];
  for (const stem of stems)
    for (const candidate of [
      ...EXTENSIONS.map((ext) => stem + ext),
      ...EXTENSIONS.slice(1).map((ext) => `${stem}/index${ext}`),
    ])
      if (paths.has(candidate)) return candidate;
  return null;
}

/** A module of the bundle as a value: what it exports as a whole, or an object of its names. */
function moduleValue(module: LocalModule): JsValue {
  if (module.names.size === 0 && module.whole) return module.whole;
  return {
    kind: 'obj',
    member: (key) =>
      module.names.get(key) ??
      (key === 'default'
        ? (module.whole ?? moduleValue(module))
        : module.whole
          ? memberOf(module.whole, key)
          : UNKNOWN),
  };
}

/** Reads members of values whose syntax trees are gone (references only). */
const DETACHED = new JsValues(new Map(), false);
const memberOf = (value: JsValue, key: string): JsValue => DETACHED.member(value, key);

/** Parses one file and evaluates what it exports, keeping what resolves to a module or a global. */
function exportsOf(
  grammars: Grammars,
  file: SourceFile,
  local: (specifier: string) => JsValue | null,
): LocalModule | null {
  const tree = grammars.parse(file.language, file.text);
  try {
    if (firstSyntaxError(tree.rootNode)) return null;
    const program = collectProgram(tree.rootNode, file.text);
    const values = new JsValues(bundledModules(program), false, program.returns, local);
    const names = new Map<string, JsValue>();
    let whole: JsValue | null = null;
    const keep = (name: string, value: JsValue): void => {
      const kept = followable(value);
      if (kept) names.set(name, kept);
    };
    for (const assignment of program.exports) {
      const left = assignment.childForFieldName('left');
      const right = assignment.childForFieldName('right');
      if (!left || !right) continue;
      if (left.text === 'module.exports') {
        whole = followable(values.value(right, program.root)) ?? whole;
        if (right.type === 'object') objectNames(right, values, program.root, keep);
      } else {
        const key = exportedKey(left);
        if (key) keep(key, values.value(right, program.root));
      }
    }
    for (const { node, scope } of program.esmExports) whole = esmExport(node, scope, values, program, keep) ?? whole;
    return whole || names.size > 0 ? { whole, names } : null;
  } finally {
    tree.delete();
  }
}

/** `export …`: names kept through `keep`; returns the module an `export * from 'm'` re-exports whole. */
function esmExport(
  node: SyntaxNode,
  scope: Scope,
  values: JsValues,
  program: JsProgram,
  keep: (name: string, value: JsValue) => void,
): JsValue | null {
  const source = node.childForFieldName('source');
  const module = source ? values.module(stringValue(source) ?? '') : null;
  const declaration = node.childForFieldName('declaration');
  const value = node.childForFieldName('value');
  if (value) keep('default', values.value(value, scope));
  if (declaration) for (const name of declaredNames(declaration)) keep(name, values.name(name, program.root));
  const clause = node.namedChildren.find((child) => child?.type === 'export_clause');
  for (const specifier of clause?.namedChildren ?? []) {
    if (specifier?.type !== 'export_specifier') continue;
    const nameNode = specifier.childForFieldName('name');
    const alias = specifier.childForFieldName('alias') ?? nameNode;
    if (!nameNode || !alias) continue;
    const name = stringValue(nameNode) ?? identifierName(nameNode);
    const exported = stringValue(alias) ?? identifierName(alias);
    keep(exported, module ? values.member(module, name) : values.name(name, scope));
  }
  const namespace = node.namedChildren.find((child) => child?.type === 'namespace_export');
  const namespaceName = namespace?.namedChildren.find((child) => child !== null);
  if (module && namespaceName) keep(stringValue(namespaceName) ?? identifierName(namespaceName), module);
  return module && !clause && !namespace && node.children.some((child) => child?.type === '*') ? module : null;
}

/** The names `export const {a, b: c} = …`, `export function f`, `export class C` declare. */
function declaredNames(declaration: SyntaxNode): string[] {
  const name = declaration.childForFieldName('name');
  if (name && declaration.type !== 'lexical_declaration' && declaration.type !== 'variable_declaration')
    return [identifierName(name)];
  const names: string[] = [];
  const visit = (pattern: SyntaxNode | null): void => {
    if (!pattern) return;
    if (pattern.type === 'identifier' || pattern.type === 'shorthand_property_identifier_pattern')
      names.push(identifierName(pattern));
    else if (pattern.type === 'pair_pattern') visit(pattern.childForFieldName('value'));
    else if (pattern.type === 'assignment_pattern' || pattern.type === 'object_assignment_pattern')
      visit(pattern.childForFieldName('left'));
    else for (const child of pattern.namedChildren) visit(child);
  };
  for (const declarator of declaration.namedChildren)
    if (declarator?.type === 'variable_declarator') visit(declarator.childForFieldName('name'));
  return names;
}

/** `module.exports = {run: cp.exec, helper}`: each member is a name the module exports. */
function objectNames(
  object: SyntaxNode,
  values: JsValues,
  scope: Scope,
  keep: (name: string, value: JsValue) => void,
): void {
  const exported = values.value(object, scope);
  for (const child of object.namedChildren) {
    const key =
      child?.type === 'pair'
        ? child.childForFieldName('key')
        : child?.type === 'shorthand_property_identifier' || child?.type === 'method_definition'
          ? (child.childForFieldName('name') ?? child)
          : null;
    if (!key || key.type === 'computed_property_name') continue;
    const name = stringValue(key) ?? identifierName(key);
    keep(name, values.member(exported, name));
  }
}

/** The name `exports.x` or `module.exports['x']` assigns. */
function exportedKey(left: SyntaxNode): string | null {
  const key = left.childForFieldName(left.type === 'member_expression' ? 'property' : 'index');
  if (!key) return null;
  return left.type === 'member_expression' ? identifierName(key) : stringValue(key);
}

/**
 * A value that outlives its syntax tree: a reference, or a function returning one (evaluated now);
 * null for anything else.
 */
function followable(value: JsValue): JsValue | null {
  // A module of the bundle not summarised (a cycle) is nothing to follow.
  if (value.kind === 'ref') return /^\.{1,2}\//.test(value.root) ? null : value;
  if (value.kind !== 'fn' || !value.returns) return null;
  const returned = followable(value.returns());
  return returned ? { kind: 'fn', returns: () => returned } : null;
}
