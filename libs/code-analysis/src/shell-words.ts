/**
 * Shell words as bash expands them, as far as a script's own text tells: quotes removed, escapes
 * decoded, variables the script sets replaced by what it sets them to, and every other expansion
 * kept as an unknown part. Rules ask two questions of a word: its constant value (if it has one)
 * and what it becomes when the unknown parts are empty, which is what an unset variable does to
 * `rm -rf "$DIR"/`.
 */
import type { SyntaxNode } from './grammars';

export type WordPart =
  | { kind: 'text'; text: string }
  | { kind: 'variable'; name: string; expansion: VariableExpansion; fallback: WordPart[] }
  /** `$(…)`, `` `…` ``, `<(…)`, `>(…)`. */
  | { kind: 'substitution'; node: SyntaxNode }
  /** A value that is never empty but cannot be known (arithmetic, `${#X}`, arrays). */
  | { kind: 'opaque' };

/**
 * How `${…}` uses the variable: plain `$X`; `${X:?}` (the shell stops when it is empty); `${X:-d}`
 * (d when empty); `${X:+a}` (a when set); `${!X}` (the variable X names); anything that changes the
 * value (`${X%/*}`, `${X/a/b}`).
 */
export type VariableExpansion = 'plain' | 'checked' | 'default' | 'alternative' | 'indirect' | 'transformed';

export interface ShellWord {
  node: SyntaxNode;
  parts: WordPart[];
  /** Spelled so that it reads as something else than it is: `c''url`, `c\url`, `$'\x63url'`. */
  disguised: boolean;
  /** Written with numeric escapes (`$'\x63\x75'`), which hide letters from a reader. */
  escaped: boolean;
}

/** Stands for a value that is known not to be empty (a temporary folder, a number, a checked variable). */
export const NON_EMPTY = '\u0001';

/** What the script assigns to one of its variables. */
export type Assignment =
  | { kind: 'word'; word: ShellWord }
  /** A value that cannot be known and may be empty (`read`, `getopts`, `local x`). */
  | { kind: 'unknown' };

/** Context variables whose value matters to a path: the home folder, the working folder, the temporary folder. */
const CONTEXT_PATHS: Readonly<Record<string, string>> = { HOME: '~', PWD: '.', TMPDIR: '/tmp' };

/**
 * Variables that describe where and as whom the script runs, not secrets: reading them is not
 * reading the environment (a skill that uses $HOME or $PATH declares nothing for it).
 */
export const CONTEXT_VARIABLES: ReadonlySet<string> = new Set(
  'HOME PWD OLDPWD PATH USER LOGNAME SHELL TMPDIR LANG LANGUAGE LC_ALL LC_CTYPE TERM IFS RANDOM LINENO SECONDS BASH BASH_SOURCE BASH_VERSION BASH_VERSINFO BASH_REMATCH BASH_LINENO BASHPID FUNCNAME PIPESTATUS PPID UID EUID GROUPS HOSTNAME HOSTTYPE OSTYPE MACHTYPE SHLVL OPTARG OPTIND OPTERR REPLY COLUMNS LINES XDG_CONFIG_HOME XDG_CACHE_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_RUNTIME_DIR ZSH_VERSION EPOCHSECONDS EPOCHREALTIME'.split(
    ' ',
  ),
);

export const isSpecialParameter = (name: string): boolean => /^(?:\d+|[@*#?$!_-])$/.test(name);

const MAX_ALTERNATIVES = 16;
const MAX_DEPTH = 4;

export function readWord(node: SyntaxNode): ShellWord {
  const parts: WordPart[] = [];
  const disguised = appendParts(node, parts);
  return { node, parts: mergeText(parts), disguised, escaped: /\$'[^']*\\(?:x|u|U|[0-7]|c)/.test(node.text) };
}

/** A word known in full: a piece of a constant line split into words. */
export const textWord = (node: SyntaxNode, text: string): ShellWord => ({
  node,
  parts: [{ kind: 'text', text }],
  disguised: false,
  escaped: false,
});

/** Appends the parts of `node` and says whether its spelling disguises it. */
function appendParts(node: SyntaxNode, parts: WordPart[]): boolean {
  switch (node.type) {
    case 'word': {
      const text = node.text;
      parts.push({ kind: 'text', text: text.replace(/\\(\n|.)/g, (_, c: string) => (c === '\n' ? '' : c)) });
      return /\\[A-Za-z0-9]/.test(text);
    }
    case 'raw_string':
      parts.push({ kind: 'text', text: node.text.slice(1, -1) });
      return false;
    case 'ansi_c_string': {
      const { text, escaped } = decodeAnsiC(node.text.slice(2, -1));
      parts.push({ kind: 'text', text });
      return escaped;
    }
    case 'string':
    case 'translated_string':
      appendStringParts(node, parts);
      return false;
    case 'concatenation': {
      let disguised = false;
      let constantPieces = 0;
      let quoted = false;
      for (const child of node.namedChildren) {
        if (!child) continue;
        const before = parts.length;
        disguised = appendParts(child, parts) || disguised;
        if (parts.slice(before).every((part) => part.kind === 'text')) constantPieces++;
        if (/^(?:raw_string|string|ansi_c_string)$/.test(child.type)) quoted = true;
      }
      return disguised || (quoted && constantPieces >= 2);
    }
    case 'simple_expansion': {
      const name = node.namedChildren[0]?.text ?? '';
      parts.push({ kind: 'variable', name, expansion: 'plain', fallback: [] });
      return false;
    }
    case 'expansion':
      parts.push(readExpansion(node));
      return false;
    case 'command_substitution':
    case 'process_substitution':
      parts.push({ kind: 'substitution', node });
      return false;
    case 'number':
    case 'brace_expression':
    case 'extglob_pattern':
    case 'regex':
      parts.push({ kind: 'text', text: node.text });
      return false;
    default:
      parts.push(node.childCount === 0 ? { kind: 'text', text: node.text } : { kind: 'opaque' });
      return false;
  }
}

/** `"…"`: its text between the named children is literal (tree-sitter does not always wrap it). */
function appendStringParts(node: SyntaxNode, parts: WordPart[]): void {
  const text = node.text;
  const start = node.startIndex;
  const open = node.type === 'translated_string' ? 2 : 1;
  let position = open;
  const literal = (to: number): void => {
    if (to > position) parts.push({ kind: 'text', text: unescapeDoubleQuoted(text.slice(position, to)) });
  };
  for (const child of node.namedChildren) {
    if (!child) continue;
    const from = child.startIndex - start;
    literal(from);
    if (child.type === 'string_content') {
      parts.push({ kind: 'text', text: unescapeDoubleQuoted(child.text) });
    } else {
      // tree-sitter-bash puts the blank before an expansion inside the expansion's first token.
      const blank = /^\s*/.exec(child.text)?.[0] ?? '';
      if (blank) parts.push({ kind: 'text', text: blank });
      appendParts(child, parts);
    }
    position = child.endIndex - start;
  }
  literal(text.length - 1);
}

function readExpansion(node: SyntaxNode): WordPart {
  let name = '';
  let expansion: VariableExpansion = 'plain';
  let operatorSeen = false;
  const fallback: WordPart[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (!child) continue;
    const field = node.fieldNameForChild(i);
    if (!name && (child.type === 'variable_name' || child.type === 'special_variable_name')) {
      name = child.text;
    } else if (!name && child.type === 'subscript') {
      name = child.childForFieldName('name')?.text ?? '';
      expansion = 'transformed';
    } else if (!name && (child.text === '!' || child.text === '#')) {
      expansion = child.text === '!' ? 'indirect' : 'transformed';
    } else if (name && field === 'operator' && !operatorSeen) {
      operatorSeen = true;
      const operator = child.text;
      if (expansion === 'plain') {
        expansion = /^:?\?$/.test(operator)
          ? 'checked'
          : /^:?[-=]$/.test(operator)
            ? 'default'
            : /^:?\+$/.test(operator)
              ? 'alternative'
              : 'transformed';
      }
    } else if (operatorSeen && child.isNamed && (expansion === 'default' || expansion === 'alternative')) {
      appendParts(child, fallback);
    }
  }
  if (expansion === 'transformed' && node.text.startsWith('${#')) return { kind: 'opaque' };
  return { kind: 'variable', name, expansion, fallback: mergeText(fallback) };
}

function unescapeDoubleQuoted(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

const ANSI_C_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `$'…'`: decoded, and whether it used numeric escapes (a way to hide letters). */
function decodeAnsiC(body: string): { text: string; escaped: boolean } {
  let escaped = false;
  const text = body.replace(
    /\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_, escape: string) => {
      const kind = escape[0] as string;
      if (kind === 'x' || kind === 'u' || kind === 'U' || /[0-7]/.test(kind)) {
        escaped = true;
        const code = /[0-7]/.test(kind) ? parseInt(escape, 8) : parseInt(escape.slice(1), 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      if (kind === 'c') {
        escaped = true;
        return String.fromCharCode((escape.charCodeAt(1) ?? 64) & 0x1f);
      }
      return ANSI_C_ESCAPES[kind] ?? `\\${escape}`;
    },
  );
  return { text, escaped };
}

function mergeText(parts: WordPart[]): WordPart[] {
  const merged: WordPart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (part.kind === 'text' && last?.kind === 'text')
      merged[merged.length - 1] = { kind: 'text', text: last.text + part.text };
    else merged.push(part);
  }
  return merged;
}

/** The variables a script sets, and what a word is worth given them. */
export class ShellValues {
  constructor(
    private readonly assignments: ReadonlyMap<string, readonly Assignment[]>,
    /** What a command substitution is known to produce (a `mktemp` folder), else null. */
    private readonly substitution: (node: SyntaxNode) => string | null,
  ) {}

  /** Whether the script itself sets `name` (so reading it is not reading the environment). */
  isSet(name: string): boolean {
    return this.assignments.has(name);
  }

  /** The word's value when it is fully known, else null. */
  constant(word: ShellWord | WordPart[], depth = 0): string | null {
    const parts = Array.isArray(word) ? word : word.parts;
    let value = '';
    for (const part of parts) {
      if (part.kind === 'text') value += part.text;
      else if (part.kind === 'variable' && part.expansion === 'plain') {
        const known = this.variableConstant(part.name, depth);
        if (known === null) return null;
        value += known;
      } else return null;
    }
    return value;
  }

  /**
   * The values the word can take when every unknown part is empty, one per way the script sets
   * its variables (bounded): the danger of `rm -rf "$DIR"/` is what it does when DIR is empty.
   */
  ifUnset(word: ShellWord | WordPart[], depth = 0): string[] {
    const parts = Array.isArray(word) ? word : word.parts;
    let values = [''];
    for (const part of parts) {
      const options = this.partIfUnset(part, depth);
      const next: string[] = [];
      for (const value of values) for (const option of options) next.push(value + option);
      values = [...new Set(next)].slice(0, MAX_ALTERNATIVES);
    }
    return values;
  }

  /** The known text the word starts with, up to its first unknown part (`"$DIR/x"` starts with nothing known). */
  knownPrefix(word: ShellWord): string {
    let prefix = '';
    for (const part of word.parts) {
      const known =
        part.kind === 'text'
          ? part.text
          : part.kind === 'variable' && part.expansion === 'plain'
            ? this.variableConstant(part.name, 0)
            : null;
      if (known === null) break;
      prefix += known;
    }
    return prefix;
  }

  /**
   * Whether every unknown part of the word comes from the script itself (its own variables, a
   * `mktemp` folder, `$$`), not from its arguments, its input or the environment: such a command
   * line has the shape the script gives it, whatever the values are.
   */
  fromScript(word: ShellWord | WordPart[], depth = 0): boolean {
    const parts = Array.isArray(word) ? word : word.parts;
    if (depth > MAX_DEPTH) return false;
    return parts.every((part) => {
      if (part.kind === 'text' || part.kind === 'opaque') return true;
      if (part.kind === 'substitution') return this.substitution(part.node) !== null;
      if (part.expansion === 'indirect') return false;
      if (
        (part.expansion === 'default' || part.expansion === 'alternative') &&
        !this.fromScript(part.fallback, depth + 1)
      )
        return false;
      if (/^[$#?!0-]$/.test(part.name) || CONTEXT_VARIABLES.has(part.name)) return true;
      const assignments = this.assignments.get(part.name);
      if (!assignments) return part.expansion === 'default';
      return assignments.every(
        (assignment) => assignment.kind === 'word' && this.fromScript(assignment.word, depth + 1),
      );
    });
  }

  /** The word as text, unknown parts as the script leaves them when empty and known-non-empty ones as `x`. */
  render(word: ShellWord): string {
    return (this.constant(word) ?? this.ifUnset(word)[0] ?? '').replaceAll(NON_EMPTY, 'x');
  }

  /** One reading of the word for pattern checks: known parts as they are, unknown ones empty. */
  approximate(word: ShellWord): string {
    return this.constant(word) ?? this.ifUnset(word)[0] ?? '';
  }

  /** Whether any part of the word is not a constant (after the script's own constants). */
  isDynamic(word: ShellWord): boolean {
    return this.constant(word) === null;
  }

  private partIfUnset(part: WordPart, depth: number): string[] {
    switch (part.kind) {
      case 'text':
        return [part.text];
      case 'opaque':
        return [NON_EMPTY];
      case 'substitution':
        return [this.substitution(part.node) ?? ''];
      case 'variable': {
        const values = this.variableIfUnset(part.name, depth);
        switch (part.expansion) {
          case 'plain':
            return values;
          case 'checked':
            return values.map((value) => value || NON_EMPTY);
          case 'default': {
            const fallback = this.ifUnset(part.fallback, depth + 1);
            return [...new Set(values.flatMap((value) => (value ? [value] : fallback)))];
          }
          case 'alternative':
            return ['', ...this.ifUnset(part.fallback, depth + 1)];
          default:
            return [''];
        }
      }
    }
  }

  private variableConstant(name: string, depth: number): string | null {
    const assignments = this.assignments.get(name);
    if (!assignments) return CONTEXT_PATHS[name] ?? null;
    if (depth >= MAX_DEPTH) return null;
    let value: string | null = null;
    for (const assignment of assignments) {
      if (assignment.kind !== 'word') return null;
      const known = this.constant(assignment.word, depth + 1);
      if (known === null || (value !== null && known !== value)) return null;
      value = known;
    }
    return value;
  }

  private variableIfUnset(name: string, depth: number): string[] {
    const assignments = this.assignments.get(name);
    if (!assignments) return [CONTEXT_PATHS[name] ?? (CONTEXT_VARIABLES.has(name) ? NON_EMPTY : '')];
    if (depth >= MAX_DEPTH) return [''];
    const values = assignments.flatMap((assignment) =>
      assignment.kind === 'word' ? this.ifUnset(assignment.word, depth + 1) : [''],
    );
    return [...new Set(values)].slice(0, MAX_ALTERNATIVES);
  }
}
