/**
 * Python name binding for the analyser: scopes (module, function, lambda, class), every place a
 * name is bound (imports, assignments, `with … as`, walrus, parameters, `def`, `global`) and every
 * place it is read. Names are found from the source text and confirmed on the syntax tree, so the
 * cost follows the names the analyser asks about, not the size of the file.
 */
import type { SyntaxNode } from './grammars';
import { NON_ASCII, isAscii, pythonName } from './python-source';

export interface Scope {
  id: number;
  kind: 'module' | 'function' | 'class';
  start: number;
  end: number;
  parent: Scope | null;
  /** The `def`, `class` or `lambda` (none for the module). */
  node: SyntaxNode | null;
  /** Where the `def` or `class` name is written (it binds in the parent scope), or -1. */
  nameAt: number;
}

/** What a binding gives its name. */
export type Binding =
  /** `x = <node>`, `with <node> as x`, `(x := <node>)`, or one element of `a, x = …, <node>`. */
  | { kind: 'value'; node: SyntaxNode }
  /** `for x in <node>`, `for k, x in <node>`: an item of what `<node>` iterates over, then item `path[i]` of each tuple in turn. */
  | { kind: 'element'; node: SyntaxNode; path: readonly number[] }
  /** `x += <node>`: computed from its old value. */
  | { kind: 'augmented'; node: SyntaxNode }
  /** `import os as x`, `from os import path as x`: the module or member named. */
  | { kind: 'import'; name: string }
  /** A parameter, `except … as x`, `def x`, `class x`: nothing known. */
  | { kind: 'opaque' };

/** A place a name is read. */
export interface Occurrence {
  node: SyntaxNode;
  scope: Scope;
}

/** How one written occurrence of a name is used. */
type Role = 'load' | 'global' | 'nonlocal' | 'definition' | 'other' | Binding;

interface NameInfo {
  /** Each written occurrence looked at so far, by offset (null: a word in a string or comment). */
  seen: Map<number, { node: SyntaxNode; role: Role } | null>;
  /** Bindings by the scope they bind in, for the scopes read so far. */
  bindings: Map<number, Binding[]>;
  loads: Occurrence[] | null;
  /** Offsets of unconditional top-level `def`, `class` and imports of the name (they shadow a builtin). */
  definite: number[];
  /** `del name` at the top of the module: a builtin of that name may show through again. */
  deleted: boolean;
}

interface Span {
  start: number;
  end: number;
}

/** An identifier the analyser found written with non-ASCII characters. */
export interface ForeignIdentifier {
  node: SyntaxNode;
  name: string;
}

/** `def name` / `async def name` / `class name`: where the name starts in a definition's text. */
const DEFINITION = /^(?:async\s+)?(?:def|class)\s+/;

const PATTERNS = new Set(['pattern_list', 'tuple_pattern', 'list_pattern', 'list_splat_pattern']);
const PARAMETER_HOSTS = new Set(['parameters', 'lambda_parameters', 'typed_parameter']);
const COMPREHENSIONS = new Set([
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
]);
/** Where the walk up to a comprehension stops: a statement, or a function or lambda with its own names. */
const STOPS_COMPREHENSION_WALK = /statement$|^lambda$|^function_definition$/;
const SEQUENCES = new Set(['expression_list', 'tuple', 'list', 'pattern_list']);
const NOT_NAMES = new Set([
  'dotted_name',
  'aliased_import',
  'import_statement',
  'import_from_statement',
  'future_import_statement',
  'relative_import',
  'delete_statement',
  'keyword_pattern',
  'case_pattern',
  'class_pattern',
  'splat_pattern',
  'as_pattern',
  'type_parameter',
]);

export class PythonNames {
  readonly module: Scope;
  private readonly scopes: Scope[];
  private readonly parents = new Map<number, SyntaxNode | null>();
  private statements: SyntaxNode[] | null = null;
  private readonly infos = new Map<string, NameInfo>();
  private readonly imports = new Map<string, { scope: Scope; binding: Binding; topLevel: number | null }[]>();
  private defined: Map<string, Scope[]> | null = null;
  private words: Map<string, Span[]> | null = null;
  private dottedWords: Map<string, Span[]> | null = null;
  /** `global x` / `nonlocal x` statements: the scopes that declare each name. */
  private declarations: Map<string, { global: Set<number>; nonlocal: Set<number> }> | null = null;
  /** `from M import *`: the scopes that star-import each module. */
  readonly starImports: { scope: Scope; module: string; node: SyntaxNode }[] = [];
  /** Identifiers spelled with non-ASCII characters, by their NFKC form. */
  private readonly foreign = new Map<string, SyntaxNode[]>();
  readonly foreignIdentifiers: ForeignIdentifier[] = [];

  constructor(
    private readonly source: string,
    private readonly root: SyntaxNode,
    scopeNodes: readonly SyntaxNode[],
  ) {
    this.module = {
      id: 0,
      kind: 'module',
      start: 0,
      end: Number.POSITIVE_INFINITY,
      parent: null,
      node: null,
      nameAt: -1,
    };
    this.scopes = [this.module];
    const open: Scope[] = [this.module];
    for (const node of scopeNodes) {
      const start = node.startIndex;
      while ((open[open.length - 1] as Scope).end <= start) open.pop();
      const kind = node.type === 'class_definition' ? 'class' : 'function';
      const parent = open[open.length - 1] as Scope;
      const header =
        kind === 'class' || node.type === 'function_definition'
          ? DEFINITION.exec(source.slice(start, start + 200))
          : null;
      const nameAt = header ? start + header[0].length : -1;
      const scope: Scope = { id: this.scopes.length, kind, start, end: node.endIndex, parent, node, nameAt };
      this.scopes.push(scope);
      open.push(scope);
    }
    if (!isAscii(source)) this.findForeignIdentifiers();
  }

  /** The innermost scope around a source offset. */
  scopeAt(index: number): Scope {
    let low = 1;
    let high = this.scopes.length - 1;
    let found: Scope = this.module;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const scope = this.scopes[middle] as Scope;
      if (scope.start <= index) {
        found = scope;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    while (!(index >= found.start && index < found.end)) found = found.parent as Scope;
    return found;
  }

  /**
   * A node's parent. tree-sitter finds a parent by walking down from the root, scanning every
   * top-level statement on the way; walking down from the innermost known scope or statement
   * instead keeps each step to a few children, and every step is remembered.
   */
  parent(node: SyntaxNode): SyntaxNode | null {
    if (node.id === this.root.id) return null;
    const cached = this.parents.get(node.id);
    if (cached !== undefined) return cached;
    let current = this.containerOf(node.startIndex, node.endIndex, node.id);
    for (;;) {
      const child = current.childWithDescendant(node);
      if (!child || child.id === node.id) break;
      this.parents.set(child.id, current);
      current = child;
    }
    this.parents.set(node.id, current);
    return current;
  }

  /** The smallest node spanning a source range. */
  nodeAt(start: number, end: number): SyntaxNode | null {
    return this.containerOf(start, end, null).descendantForIndex(start, end);
  }

  /** The innermost scope node or top-level statement around a range (never `self`), else the root. */
  private containerOf(start: number, end: number, self: number | null): SyntaxNode {
    for (let scope: Scope | null = this.scopeAt(start); scope?.node; scope = scope.parent)
      if (scope.node.id !== self && end <= scope.end) return scope.node;
    const statement = this.statementAt(start);
    if (statement && statement.id !== self && end <= statement.endIndex) return statement;
    return this.root;
  }

  /** The top-level statement (or comment) around an offset. */
  statementAt(index: number): SyntaxNode | null {
    this.statements ??= this.root.namedChildren.filter((node): node is SyntaxNode => node !== null);
    const statements = this.statements;
    let low = 0;
    let high = statements.length - 1;
    let found: SyntaxNode | null = null;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const statement = statements[middle] as SyntaxNode;
      if (statement.startIndex <= index) {
        found = statement;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found;
  }

  /** The name an identifier node stands for (NFKC, as Python reads it). */
  nameOf(node: SyntaxNode): string {
    return pythonName(this.source.slice(node.startIndex, node.endIndex));
  }

  /**
   * Records `import …` and `from … import …` (relative imports are the skill's own modules), and
   * answers the names it binds with the qualified name each stands for.
   */
  addImport(node: SyntaxNode, canonical: (module: string) => string): { name: string; target: string }[] {
    const scope = this.scopeAt(node.startIndex);
    const topLevel = this.statementAt(node.startIndex)?.id === node.id ? node.startIndex : null;
    const bound: { name: string; target: string }[] = [];
    const bind = (name: string, target: string): void => {
      bound.push({ name, target });
      this.bindImport(name, scope, target, topLevel);
    };
    if (node.type === 'import_statement') {
      for (const item of node.namedChildren) {
        if (!item) continue;
        if (item.type === 'dotted_name') {
          const first = this.dottedName(item).split('.')[0] as string;
          bind(first, canonical(first));
        } else if (item.type === 'aliased_import') {
          const name = item.childForFieldName('name');
          const alias = item.childForFieldName('alias');
          if (name && alias) bind(this.nameOf(alias), canonical(this.dottedName(name)));
        }
      }
      return bound;
    }
    const moduleNode = node.childForFieldName('module_name');
    if (!moduleNode || moduleNode.type !== 'dotted_name') return bound;
    const module = canonical(this.dottedName(moduleNode));
    for (const item of node.namedChildren) {
      if (!item || item.startIndex === moduleNode.startIndex) continue;
      if (item.type === 'wildcard_import') {
        this.starImports.push({ scope, module, node });
      } else if (item.type === 'dotted_name') {
        const name = this.dottedName(item);
        bind(name.split('.')[0] as string, canonical(`${module}.${name}`));
      } else if (item.type === 'aliased_import') {
        const name = item.childForFieldName('name');
        const alias = item.childForFieldName('alias');
        if (name && alias) bind(this.nameOf(alias), canonical(`${module}.${this.dottedName(name)}`));
      }
    }
    return bound;
  }

  /**
   * The bindings a name has in one scope, read from that scope's own code only (nested scopes
   * excluded, with `global` and `nonlocal` applied): a lookup costs what the scope costs.
   */
  bindingsIn(name: string, scope: Scope): readonly Binding[] {
    const info = this.info(name);
    const known = info.bindings.get(scope.id);
    if (known) return known;
    const bindings: Binding[] = [];
    info.bindings.set(scope.id, bindings);
    if (this.declares(name, scope)) return bindings;
    for (const { scope: at, binding, topLevel } of this.imports.get(name) ?? []) {
      if (this.bindingScope(name, at) !== scope) continue;
      bindings.push(binding);
      if (topLevel !== null) info.definite.push(topLevel);
    }
    for (const owner of this.codeOwners(name, scope)) {
      for (const child of this.definitions(name)) {
        if (child.parent !== owner) continue;
        bindings.push({ kind: 'opaque' });
        if (scope === this.module && child.node && this.isTopLevel(child.node)) info.definite.push(child.start);
      }
      // The scope's own code: its range without the scopes nested in it.
      for (const span of this.spans(name, false, owner.start, owner.end)) {
        if (this.scopeAt(span.start) !== owner) continue;
        const seen = this.look(info, span);
        if (!seen) continue;
        if (typeof seen.role === 'object') bindings.push(seen.role);
        if (scope === this.module && this.isDeletion(seen.node)) info.deleted = true;
      }
    }
    return bindings;
  }

  /** Every place a name is read, in document order. */
  occurrences(name: string): readonly Occurrence[] {
    const info = this.info(name);
    if (!info.loads) {
      const loads: Occurrence[] = [];
      for (const span of this.spans(name, false, 0, this.source.length)) {
        const seen = this.look(info, span);
        if (seen?.role === 'load') loads.push({ node: seen.node, scope: this.scopeAt(span.start) });
      }
      info.loads = loads;
    }
    return info.loads;
  }

  /** The attribute nodes `x.name` that read an attribute of this name, whatever `x` is. */
  attributeReads(name: string): SyntaxNode[] {
    const reads: SyntaxNode[] = [];
    for (const span of this.spans(name, true, 0, this.source.length)) {
      const node = this.identifierAt(span);
      const parent = node ? this.parent(node) : null;
      if (parent?.type === 'attribute' && parent.startIndex !== span.start) reads.push(parent);
    }
    return reads;
  }

  /** Whether a scope declares a name `global`: its reads then go to the module. */
  isGlobalIn(name: string, scope: Scope): boolean {
    return this.declared(name)?.global.has(scope.id) ?? false;
  }

  private declares(name: string, scope: Scope): boolean {
    const declared = this.declared(name);
    return declared !== undefined && (declared.global.has(scope.id) || declared.nonlocal.has(scope.id));
  }

  /** The scope a binding written in `scope` binds in. */
  private bindingScope(name: string, scope: Scope): Scope {
    const declared = this.declared(name);
    if (declared?.global.has(scope.id)) return this.module;
    if (declared?.nonlocal.has(scope.id)) return this.enclosingFunction(scope);
    return scope;
  }

  /** The scopes whose own code can bind a name in `scope`: itself, and those that declare it `global`/`nonlocal` there. */
  private codeOwners(name: string, scope: Scope): Scope[] {
    const owners = [scope];
    const declared = this.declared(name);
    if (!declared) return owners;
    for (const id of [...declared.global, ...declared.nonlocal]) {
      const other = this.scopes[id] as Scope;
      if (this.bindingScope(name, other) === scope) owners.push(other);
    }
    return owners;
  }

  /** The `def` and `class` scopes whose name is `name` (they bind it in their parent scope). */
  private definitions(name: string): readonly Scope[] {
    if (!this.defined) {
      this.defined = new Map();
      const word = /[\p{ID_Start}_][\p{ID_Continue}]*/uy;
      for (const scope of this.scopes) {
        if (scope.nameAt < 0) continue;
        word.lastIndex = scope.nameAt;
        const match = word.exec(this.source);
        if (!match) continue;
        const defined = pythonName(match[0]);
        const list = this.defined.get(defined);
        if (list) list.push(scope);
        else this.defined.set(defined, [scope]);
      }
    }
    return this.defined.get(name) ?? [];
  }

  private declared(name: string): { global: Set<number>; nonlocal: Set<number> } | undefined {
    if (!this.declarations) {
      this.declarations = new Map();
      for (const keyword of ['global', 'nonlocal'] as const) {
        for (const span of this.written(keyword, false)) {
          if (!/^[ \t]*$/.test(this.lineBefore(span.start))) continue;
          if (this.nodeAt(span.start, span.end)?.type !== keyword) continue;
          const scope = this.scopeAt(span.start);
          const names = /^[^\n#;]*/.exec(this.source.slice(span.end, span.end + 1000))?.[0] ?? '';
          for (const declared of names.split(',').map((part) => pythonName(part.trim()))) {
            let entry = this.declarations.get(declared);
            if (!entry) this.declarations.set(declared, (entry = { global: new Set(), nonlocal: new Set() }));
            entry[keyword].add(scope.id);
          }
        }
      }
    }
    return this.declarations.get(name);
  }

  private lineBefore(index: number): string {
    return this.source.slice(this.source.lastIndexOf('\n', index - 1) + 1, index);
  }

  private info(name: string): NameInfo {
    let info = this.infos.get(name);
    if (!info) {
      info = { seen: new Map(), bindings: new Map(), loads: null, definite: [], deleted: false };
      this.infos.set(name, info);
    }
    return info;
  }

  /** What the identifier at a span is (once), or null when the word is not an identifier. */
  private look(info: NameInfo, span: Span): { node: SyntaxNode; role: Role } | null {
    const known = info.seen.get(span.start);
    if (known !== undefined) return known;
    const node = this.identifierAt(span);
    const parent = node ? this.parent(node) : null;
    const seen = node ? { node, role: parent ? this.classify(node, parent) : ('load' as Role) } : null;
    info.seen.set(span.start, seen);
    return seen;
  }

  private identifierAt({ start, end }: Span): SyntaxNode | null {
    const node = this.nodeAt(start, end);
    return node && node.type === 'identifier' && node.startIndex === start && node.endIndex === end ? node : null;
  }

  private isDeletion(node: SyntaxNode): boolean {
    const parent = this.parent(node);
    const holder = parent?.type === 'expression_list' ? this.parent(parent) : parent;
    return holder?.type === 'delete_statement';
  }

  /** Offsets of the unconditional top-level definitions and imports of a name. */
  definiteBindings(name: string): readonly number[] {
    this.bindingsIn(name, this.module);
    return this.info(name).definite;
  }

  isDeleted(name: string): boolean {
    this.bindingsIn(name, this.module);
    return this.info(name).deleted;
  }

  /** A `def` or `class` statement of the module itself, not inside an `if`, `try` or function. */
  private isTopLevel(definition: SyntaxNode): boolean {
    const statement = this.statementAt(definition.startIndex);
    if (!statement) return false;
    if (statement.id === definition.id) return true;
    return statement.type === 'decorated_definition' && statement.endIndex === definition.endIndex;
  }

  private enclosingFunction(scope: Scope): Scope {
    let current = scope.parent;
    while (current && current.kind === 'class') current = current.parent;
    return current ?? this.module;
  }

  /** How an identifier is used: read, attribute name, bound (and to what), declared, or not a name at all. */
  private classify(node: SyntaxNode, parent: SyntaxNode): Role {
    const first = node.startIndex === parent.startIndex;
    switch (parent.type) {
      case 'attribute':
        return first ? 'load' : 'other';
      case 'keyword_argument':
        return first ? 'other' : 'load';
      case 'assignment': {
        if (!first) return 'load';
        const right = parent.childForFieldName('right');
        return right ? { kind: 'value', node: right } : 'other';
      }
      case 'augmented_assignment': {
        const right = parent.childForFieldName('right');
        return first && right ? { kind: 'augmented', node: right } : 'load';
      }
      case 'named_expression': {
        const value = parent.childForFieldName('value');
        return first && value ? { kind: 'value', node: value } : 'load';
      }
      case 'for_statement': {
        const iterable = parent.childForFieldName('right');
        if (parent.childForFieldName('left')?.startIndex !== node.startIndex) return 'load';
        return iterable ? { kind: 'element', node: iterable, path: [] } : { kind: 'opaque' };
      }
      case 'for_in_clause':
        // A comprehension's variable lives in the comprehension only.
        return parent.childForFieldName('left')?.startIndex === node.startIndex ? 'other' : 'load';
      case 'as_pattern_target': {
        const pattern = this.parent(parent);
        const value = pattern?.firstNamedChild;
        const item = pattern ? this.parent(pattern) : null;
        return item?.type === 'with_item' && value ? { kind: 'value', node: value } : { kind: 'opaque' };
      }
      case 'parameters':
      case 'lambda_parameters':
      case 'typed_parameter':
      case 'dictionary_splat_pattern':
        return { kind: 'opaque' };
      case 'default_parameter':
      case 'typed_default_parameter':
        return first ? { kind: 'opaque' } : 'load';
      case 'function_definition':
      case 'class_definition':
        return 'definition';
      case 'global_statement':
        return 'global';
      case 'nonlocal_statement':
        return 'nonlocal';
      default:
        if (PATTERNS.has(parent.type)) return this.patternRole(node, parent);
        return NOT_NAMES.has(parent.type) ? 'other' : 'load';
    }
  }

  /** A name inside `a, b = …`, `for a, b in …`, `*rest` or a parameter pattern. */
  private patternRole(node: SyntaxNode, parent: SyntaxNode): Binding | 'other' {
    let pattern = parent;
    for (let up = this.parent(pattern); up && PATTERNS.has(up.type); up = this.parent(pattern)) pattern = up;
    const host = this.parent(pattern);
    if (!host) return { kind: 'opaque' };
    if (host.type === 'for_in_clause') return 'other';
    if (PARAMETER_HOSTS.has(host.type)) return { kind: 'opaque' };
    const iterable = host.type === 'for_statement' ? host.childForFieldName('right') : null;
    if (iterable && host.childForFieldName('left')?.id === pattern.id) {
      const path = targetPath(pattern, node);
      return path ? { kind: 'element', node: iterable, path } : { kind: 'opaque' };
    }
    if (host.type === 'assignment' && pattern.startIndex === host.startIndex && pattern.id === parent.id) {
      // `a, x = y, z`: pair the elements when both sides are flat and of one length.
      const right = host.childForFieldName('right');
      if (right && SEQUENCES.has(right.type) && parent.type !== 'list_splat_pattern') {
        const targets = parent.namedChildren;
        const values = right.namedChildren;
        const index = targets.findIndex((target) => target?.startIndex === node.startIndex);
        const value = values[index];
        if (targets.length === values.length && value) return { kind: 'value', node: value };
      }
    }
    return { kind: 'opaque' };
  }

  /**
   * The binding of a name read inside a comprehension that binds it (`p / n for n in NAMES`), or
   * null: the variable lives in the comprehension only. The walk stops at the statement.
   */
  comprehensionBinding(node: SyntaxNode): Binding | null {
    const name = this.nameOf(node);
    for (let up = this.parent(node); up && !STOPS_COMPREHENSION_WALK.test(up.type); up = this.parent(up)) {
      if (COMPREHENSIONS.has(up.type)) {
        for (const clause of up.namedChildren) {
          if (clause?.type !== 'for_in_clause') continue;
          const left = clause.childForFieldName('left');
          const right = clause.childForFieldName('right');
          if (!left || !right || (right.startIndex <= node.startIndex && node.endIndex <= right.endIndex)) continue;
          const target = this.targetNamed(left, name);
          if (!target) continue;
          const path = targetPath(left, target);
          return path ? { kind: 'element', node: right, path } : { kind: 'opaque' };
        }
      }
    }
    return null;
  }

  /** The identifier named `name` in a target pattern (`k, (a, name)`), if any. */
  private targetNamed(pattern: SyntaxNode, name: string): SyntaxNode | null {
    if (pattern.type === 'identifier') return this.nameOf(pattern) === name ? pattern : null;
    if (!PATTERNS.has(pattern.type) && pattern.type !== 'parenthesized_expression') return null;
    for (const child of pattern.namedChildren) {
      const found = child ? this.targetNamed(child, name) : null;
      if (found) return found;
    }
    return null;
  }

  private bindImport(name: string, scope: Scope, target: string, topLevel: number | null): void {
    const list = this.imports.get(name);
    const entry = { scope, binding: { kind: 'import', name: target } as Binding, topLevel };
    if (list) list.push(entry);
    else this.imports.set(name, [entry]);
  }

  private dottedName(node: SyntaxNode): string {
    return node.namedChildren.map((part) => (part ? this.nameOf(part) : '')).join('.');
  }

  /** Where a word spelled `name` is written in [start, end), after a `.` or not (see `written`). */
  private spans(name: string, dotted: boolean, start: number, end: number): Span[] {
    const all = this.written(name, dotted);
    let low = 0;
    let high = all.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((all[middle] as Span).start < start) low = middle + 1;
      else high = middle;
    }
    let stop = low;
    while (stop < all.length && (all[stop] as Span).start < end) stop++;
    return all.slice(low, stop);
  }

  /**
   * Every word spelled `name` (or whose NFKC form is `name`), after a `.` (attribute names) or
   * not. The source is cut into words once; only the syntax tree says what each one is.
   */
  private written(name: string, dotted: boolean): Span[] {
    if (!this.words) this.indexWords();
    return (dotted ? this.dottedWords : this.words)?.get(name) ?? [];
  }

  private indexWords(): void {
    const words = new Map<string, Span[]>();
    const dotted = new Map<string, Span[]>();
    const { source } = this;
    const length = source.length;
    for (let index = 0; index < length;) {
      const code = source.charCodeAt(index);
      if (!isNameStart(code)) {
        index++;
        continue;
      }
      const start = index;
      let ascii = true;
      for (let next = code; index < length && isNameChar(next); next = source.charCodeAt(++index)) ascii &&= next < 128;
      // A word after a digit is part of a number; one with non-ASCII characters is indexed below, by its NFKC form.
      if (!ascii || isNameChar(source.charCodeAt(start - 1))) continue;
      const word = source.slice(start, index);
      const target = afterDot(source, start) ? dotted : words;
      const list = target.get(word);
      if (list) list.push({ start, end: index });
      else target.set(word, [{ start, end: index }]);
    }
    for (const [name, nodes] of this.foreign) {
      for (const node of nodes) {
        const target = afterDot(source, node.startIndex) ? dotted : words;
        const list = target.get(name) ?? [];
        list.push({ start: node.startIndex, end: node.endIndex });
        target.set(
          name,
          list.sort((a, b) => a.start - b.start),
        );
      }
    }
    this.words = words;
    this.dottedWords = dotted;
  }

  /**
   * Every identifier written with a non-ASCII character (Python accepts them and NFKC-folds them,
   * a reader does not). Words in strings and comments are skipped a whole literal at a time.
   */
  private findForeignIdentifiers(): void {
    const { source } = this;
    const word = /[\p{ID_Continue}]+/uy;
    let skipUntil = -1;
    for (const match of source.matchAll(new RegExp(NON_ASCII.source, 'g'))) {
      const at = match.index;
      if (at < skipUntil) continue;
      const start = wordStart(source, at);
      word.lastIndex = start;
      const token = word.exec(source);
      const end = start + (token?.[0].length ?? 0);
      if (!token || end <= at) continue;
      skipUntil = end;
      const node = this.nodeAt(start, end);
      if (!node) continue;
      if (node.type !== 'identifier') {
        if (node.type === 'string_content' || node.type === 'comment' || node.type === 'string')
          skipUntil = node.endIndex;
        continue;
      }
      if (node.startIndex !== start || node.endIndex !== end) continue;
      const name = pythonName(token[0]);
      this.foreignIdentifiers.push({ node, name });
      const list = this.foreign.get(name);
      if (list) list.push(node);
      else this.foreign.set(name, [node]);
    }
  }
}

/** Whether a word follows a `.` on its line (an attribute name: `os.system`, `os . system`). */
function afterDot(source: string, index: number): boolean {
  let at = index - 1;
  while (at >= 0 && (source[at] === ' ' || source[at] === '\t')) at--;
  return source[at] === '.';
}

/** ASCII letters and `_`, and anything non-ASCII (a word that may start a name). */
function isNameStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code > 127;
}

/** ASCII letters, digits, `_`, and anything non-ASCII: what can continue a Python name around an ASCII match. */
function isNameChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code > 127
  );
}

const WORD_CHAR = /^\p{ID_Continue}$/u;

/** Where the word around `index` starts, stepping back over whole code points. */
function wordStart(text: string, index: number): number {
  let start = index;
  while (start > 0) {
    let previous = start - 1;
    const code = text.charCodeAt(previous);
    if (code >= 0xdc00 && code <= 0xdfff && previous > 0) previous--;
    if (!WORD_CHAR.test(String.fromCodePoint(text.codePointAt(previous) as number))) break;
    start = previous;
  }
  return start;
}

/** Where a target sits in a loop's pattern (`a, (b, c)`: `c` is item 1 of item 1), or null behind a `*rest`. */
function targetPath(pattern: SyntaxNode, target: SyntaxNode): number[] | null {
  if (pattern.id === target.id) return [];
  if (pattern.type === 'list_splat_pattern') return null;
  const children = pattern.namedChildren.filter(
    (child): child is SyntaxNode => child !== null && child.type !== 'comment',
  );
  const unwrap = pattern.type === 'parenthesized_expression';
  for (const [index, child] of children.entries()) {
    if (child.startIndex > target.startIndex || target.endIndex > child.endIndex) continue;
    if (children.slice(0, index).some((before) => before.type === 'list_splat_pattern')) return null;
    const rest = targetPath(child, target);
    return rest && (unwrap ? rest : [index, ...rest]);
  }
  return null;
}
