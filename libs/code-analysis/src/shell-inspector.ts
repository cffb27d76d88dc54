/**
 * The shell rules, applied to a script or a constant command line and to the shell code nested in
 * it (`eval`, `sh -c`, `trap`, heredocs fed to a shell). Commands are read through their wrappers
 * (`sudo`, `env`, `timeout`, `xargs`, `find -exec`…) and followed through pipes, redirections and
 * substitutions, in the order the script runs them: a file downloaded on one line and run on the
 * next is download-and-run.
 */
import type { Grammars, SyntaxNode } from './grammars';
import {
  BUILTINS,
  DOWNLOADERS,
  FILE_READERS,
  FILE_WRITERS,
  SHELLS,
  SOCKET_TOOLS,
  codeSource,
  decodes,
  dumpsEnvironment,
  extracts,
  hasFlag,
  interpreterOf,
  optionValue,
  programName,
  shellSource,
  usesNetwork,
  wrappedCommand,
  xargsReplacement,
  type Interpreter,
} from './shell-commands';
import type { Findings } from './findings';
import { isCredentialPath } from './credential-paths';
import { persistenceIn } from './persistence-paths';
import { isDestructiveTarget, isDevice, isEnvironmentFile, isLogOrHistory } from './shell-paths';
import {
  CONTEXT_VARIABLES,
  NON_EMPTY,
  ShellValues,
  isSpecialParameter,
  readWord,
  textWord,
  type Assignment,
  type ShellWord,
} from './shell-words';
import { firstSyntaxError, walk } from './syntax';
import type { CodeText, ShellCommandAnalysis } from './analysis.types';

/** What Python or JavaScript source does, its lines counted from its own first line. */
export type NestedCode = (language: 'python' | 'javascript', code: string) => ShellCommandAnalysis;

/** What a command (or a pipeline stage, or a substitution) feeds to whatever reads its output. */
interface Produces {
  download: boolean;
  socket: boolean;
  decode: boolean;
  environment: boolean;
  credentials: boolean;
  /** It runs shell or interpreter code read from its input (`sh`, `python3 -`, `bash -i`). */
  code: boolean;
  network: boolean;
  extract: boolean;
  /** Its output when it is a constant (`echo 'ls'`, `cat <<'EOF'`), else null. */
  text: string | null;
}

const NOTHING: Produces = {
  download: false,
  socket: false,
  decode: false,
  environment: false,
  credentials: false,
  code: false,
  network: false,
  extract: false,
  text: null,
};

/** Where a command's standard input comes from. */
type Input =
  | { kind: 'pipe'; upstream: Produces; pipeline: SyntaxNode }
  | { kind: 'heredoc'; body: SyntaxNode | null }
  | { kind: 'herestring'; word: ShellWord }
  | { kind: 'file'; word: ShellWord };

/** One command about to run, after its wrappers are read. */
interface Invocation {
  /** The command as written: its line and the evidence. */
  node: SyntaxNode;
  words: ShellWord[];
  input: Input | null;
  redirects: readonly SyntaxNode[];
  /** Text that xargs or `find -exec` replaces with input (`{}`), if any. */
  replacement: string | null;
}

/** A program the rules judge: the invocation that starts it, read through its wrappers. */
interface ProgramRun {
  call: Invocation;
  program: string;
  /** Its arguments' values (unknown parts approximated), and the words they are read from. */
  args: string[];
  words: ShellWord[];
  line: Line;
  depth: number;
  /** The line reported and the evidence: the command as written. */
  at: number;
  evidence: string;
}

/** Maps a node to the line reported: its own line in the file, or one fixed line for code nested in a string. */
export interface Line {
  (node: SyntaxNode): number;
  readonly fixed: number | null;
  /** Lines before the parsed text's first line (a heredoc's body starts below the file's top). */
  readonly offset: number;
}

export function lines(fixed: number | null, offset = 0): Line {
  const line = (node: SyntaxNode): number => fixed ?? offset + node.startPosition.row + 1;
  return Object.assign(line, { fixed, offset });
}

/** Programs that only create, test or change the metadata of the paths they are given (they read nothing). */
const NON_READERS: ReadonlySet<string> = new Set(
  'mkdir touch chmod chown chgrp rm rmdir ln echo printf test [ [[ : true false cd pushd unset export local declare readonly'.split(
    ' ',
  ),
);

const NEUTRAL_DEVICES = /^\/dev\/(?:null|zero|u?random|stdin|stdout|stderr|tty|fd\/\d+)$/;

/** Depth of shell code inside shell code (`eval "sh -c '…'"`) beyond which nothing is believed. */
const MAX_NESTING = 6;
/** Nested command lines parsed per file: a file that needs more is built to wear the analyser out. */
const MAX_NESTED_PARSES = 256;

export class ShellInspector {
  private readonly assignments = new Map<string, Assignment[]>();
  private readonly values = new ShellValues(this.assignments, (node) => this.substitutionValue(node));
  private readonly functions = new Set<string>();
  /** Files the script downloaded or decoded, by path as written. */
  private readonly produced = new Map<string, 'download' | 'decode'>();
  /** Folders a download was unpacked into. */
  private readonly unpacked: string[] = [];
  private cwdIsRoot = false;
  private parses = 0;
  /** Keyed by `nodeKey`: node ids are addresses, and a deleted nested tree's may come back in the next one. */
  private readonly inputs = new Map<string, Input>();
  private readonly statementOf = new Map<string, SyntaxNode>();
  private readonly producesMemo = new Map<string, Produces>();
  private readonly trees = new WeakMap<object, number>();
  private treeCount = 0;

  constructor(
    private readonly grammars: Grammars,
    private readonly findings: Findings,
    /** Analyses Python or JavaScript code a command runs inline (`python3 -c`, `node -e`, a heredoc); absent: it is dynamic code. */
    private readonly nestedCode?: NestedCode,
  ) {}

  /** Applies every rule to a parsed script; comments go to `comments` when given (top level only). */
  inspect(root: SyntaxNode, line: Line, depth: number, comments?: CodeText[]): void {
    const items: SyntaxNode[] = [];
    const expansions: SyntaxNode[] = [];
    walk(root, (node) => {
      switch (node.type) {
        case 'comment':
          comments?.push({ line: line(node), text: node.text });
          return false;
        case 'command':
          this.collectReads(node);
          items.push(node);
          return;
        case 'pipeline':
        case 'function_definition':
          items.push(node);
          if (node.type === 'function_definition') {
            const name = node.childForFieldName('name')?.text;
            if (name) this.functions.add(name);
          }
          return;
        case 'redirected_statement': {
          items.push(node);
          const body = node.childForFieldName('body');
          if (body) this.statementOf.set(this.nodeKey(body), node);
          return;
        }
        case 'variable_assignment':
          this.collectAssignment(node);
          return;
        case 'for_statement':
          this.collectLoop(node);
          return;
        case 'declaration_command':
          for (const child of node.namedChildren) {
            if (child?.type === 'variable_name' && !/^(?:export|readonly)/.test(node.text))
              this.assign(child.text, { kind: 'unknown' });
          }
          return;
        case 'simple_expansion':
        case 'expansion':
          expansions.push(node);
          return;
        default:
          return;
      }
    });
    for (const node of expansions) this.environmentRead(node, line);
    for (const node of items) {
      if (node.type === 'command') this.command(node, line, depth);
      else if (node.type === 'pipeline') this.pipeline(node, line);
      else if (node.type === 'redirected_statement') this.statement(node, line);
      else this.functionDefinition(node, line);
    }
  }

  // --- collection -------------------------------------------------------------------------------

  private assign(name: string, assignment: Assignment): void {
    const list = this.assignments.get(name);
    if (list) list.push(assignment);
    else this.assignments.set(name, [assignment]);
  }

  private collectAssignment(node: SyntaxNode): void {
    const name = node.childForFieldName('name');
    if (!name) return;
    const value = node.childForFieldName('value');
    const variable = name.type === 'subscript' ? (name.childForFieldName('name')?.text ?? '') : name.text;
    const append = node.text.slice(name.text.length).startsWith('+=');
    if (!value) this.assign(variable, { kind: 'word', word: textWord(node, '') });
    else if (append || value.type === 'array' || name.type === 'subscript') this.assign(variable, { kind: 'unknown' });
    else this.assign(variable, { kind: 'word', word: readWord(value) });
  }

  private collectLoop(node: SyntaxNode): void {
    const variable = node.childForFieldName('variable')?.text;
    if (!variable) return;
    const values = node.childrenForFieldName('value').filter((value): value is SyntaxNode => value !== null);
    if (values.length === 0) this.assign(variable, { kind: 'unknown' });
    for (const value of values) this.assign(variable, { kind: 'word', word: readWord(value) });
  }

  /** `read x`, `getopts o x`, `mapfile x`, `printf -v x`: variables set from input. */
  private collectReads(node: SyntaxNode): void {
    const name = node.childForFieldName('name')?.text;
    if (
      name !== 'read' &&
      name !== 'getopts' &&
      name !== 'mapfile' &&
      name !== 'readarray' &&
      name !== 'printf' &&
      name !== 'select'
    )
      return;
    const args = node.childrenForFieldName('argument').map((arg) => arg?.text ?? '');
    const names =
      name === 'printf'
        ? args.filter((_, i) => args[i - 1] === '-v')
        : name === 'getopts'
          ? args.slice(1, 2)
          : args.filter((arg, i) => /^[A-Za-z_]\w*$/.test(arg) && !/^-[adinpstuN]$/.test(args[i - 1] ?? ''));
    for (const variable of names) this.assign(variable, { kind: 'unknown' });
    if (name === 'read' && names.length === 0) this.assign('REPLY', { kind: 'unknown' });
  }

  // --- environment ------------------------------------------------------------------------------

  private environmentRead(node: SyntaxNode, line: Line): void {
    const word = readWord(node);
    const part = word.parts[0];
    if (!part || part.kind !== 'variable' || !part.name) return;
    if (isSpecialParameter(part.name) || CONTEXT_VARIABLES.has(part.name) || this.values.isSet(part.name)) return;
    this.findings.capability('env_read', line(node), node.text);
  }

  // --- commands ---------------------------------------------------------------------------------

  private command(node: SyntaxNode, line: Line, depth: number): void {
    const words: ShellWord[] = [];
    const redirects: SyntaxNode[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (field === 'name') {
        const first = child.namedChildren[0];
        if (first) words.push(readWord(first));
      } else if (field === 'argument') words.push(readWord(child));
      else if (field === 'redirect') redirects.push(child);
    }
    if (words.length === 0) return;
    const statement = this.statementOf.get(this.nodeKey(node));
    const allRedirects = statement ? [...redirects, ...this.redirectsOf(statement)] : redirects;
    const input = this.redirectInput(allRedirects) ?? this.inputs.get(this.nodeKey(node)) ?? null;
    const shown = statement ?? node;
    const external = this.invoke(
      { node: shown, words: this.split(words), input, redirects: allRedirects, replacement: null },
      line,
      depth,
    );
    if (external) this.findings.capability('process_exec', line(node), shown.text);
  }

  /** `$cmd` unquoted with a constant value holding blanks is several words (word splitting). */
  private split(words: ShellWord[]): ShellWord[] {
    const first = words[0] as ShellWord;
    if (first.node.type !== 'simple_expansion' && first.node.type !== 'expansion') return words;
    const value = this.values.constant(first);
    if (value === null || !/\s/.test(value.trim())) return words;
    const pieces = value
      .trim()
      .split(/\s+/)
      .map((text) => textWord(first.node, text));
    return [...pieces, ...words.slice(1)];
  }

  /**
   * Runs one invocation through its wrappers and applies the rules of the program it ends at.
   * Returns whether a program outside the shell is started.
   */
  private invoke(call: Invocation, line: Line, depth: number): boolean {
    const at = line(call.node);
    const evidence = call.node.text;
    const [nameWord, ...argWords] = call.words;
    if (!nameWord) return false;
    const name = this.commandName(nameWord, at, evidence);
    if (name === null) return true;
    // Only a name that could be a program hides one: `"speed":` or `"max"}` (data read as shell) names none.
    if (
      PROGRAM_NAME.test(name) &&
      (nameWord.disguised || (this.values.constant(nameWord) !== null && builtFromPieces(nameWord)))
    ) {
      this.findings.issue(
        'obfuscation',
        at,
        'Spells a command name in pieces or escapes, which only serves to hide what runs.',
        evidence,
      );
    }
    const program = programName(name);
    const args = argWords.map((word) => this.values.approximate(word));
    if (this.functions.has(name)) return false;
    const run: ProgramRun = { call, program, args, words: argWords, line, depth, at, evidence };

    this.producedRun(name, at, evidence);

    const wrapped = wrappedCommand(program, args);
    if (wrapped?.kind === 'command') {
      const inner: Invocation = { ...call, words: argWords.slice(wrapped.index) };
      if (program === 'xargs') {
        inner.input = null;
        inner.replacement = xargsReplacement(args.slice(0, wrapped.index)) ?? '';
      }
      const external = this.invoke(inner, line, depth);
      return external || !BUILTINS.has(program);
    }
    if (wrapped?.kind === 'shell-line') {
      const code = wrapped.join ? argWords.slice(wrapped.index) : [argWords[wrapped.index] as ShellWord];
      this.shellCode(code, run, `${program} runs this command line`);
      return true;
    }
    if (program === 'xargs') {
      // No command: xargs runs echo.
      return true;
    }

    this.programRules(run);
    if (program === 'find') this.findExec(run);
    return !BUILTINS.has(program);
  }

  /** The command name's value, or null when it is decided at run time (then reported). */
  private commandName(word: ShellWord, at: number, evidence: string): string | null {
    const constant = this.values.constant(word);
    if (constant !== null) return constant;
    // `"$0" jira "$KEY"`: the script runs itself again, nothing it did not already show.
    const [only] = word.parts;
    if (word.parts.length === 1 && only?.kind === 'variable' && only.name === '0' && only.expansion === 'plain')
      return '$0';
    const flags = this.producesOfWord(word);
    if (this.codeIssue(flags, at, evidence, 'Runs the output of a command substitution as a command')) return null;
    // `"$VENV/bin/pip"`, `${PREFIX}pip`: the program's own name is written out; `${PYTHON:-python3}`,
    // `$(command -v python3)`: one variable whose every value the script gives.
    const last = word.parts[word.parts.length - 1];
    const named = last?.kind === 'text' && programName(last.text) !== '';
    // `$ECHO` unquoted, set to `echo -e` or `echo`: word splitting runs its first word.
    const unquoted = word.node.type === 'simple_expansion' || word.node.type === 'expansion';
    const alternatives = this.values
      .ifUnset(word)
      .map((value) => (unquoted ? (value.trim().split(/\s+/)[0] ?? '') : value));
    const given =
      word.parts.length === 1 &&
      alternatives.every(
        (value) => value !== '' && !value.includes(NON_EMPTY) && !/\s/.test(value) && value === alternatives[0],
      );
    if (named || given) return alternatives[0] as string;
    this.findings.issue(
      'shell-from-input',
      at,
      'Runs a command whose name comes from a variable or input, so what runs is decided at run time.',
      evidence,
    );
    return null;
  }

  private programRules(run: ProgramRun): void {
    const { program, args, words, at, evidence, depth } = run;
    const interpreter = interpreterOf(program);
    if (SHELLS.has(program)) this.shell(run);
    else if (interpreter) this.interpreter(interpreter, run);

    switch (program) {
      case 'eval':
        if (words.length > 0) this.shellCode(words, run, 'eval runs this command line');
        break;
      case 'source':
      case '.':
        this.source(words[0], run);
        break;
      case 'trap': {
        const code = words[0] ? this.values.constant(words[0]) : '';
        if (words[0] && code !== '' && code !== '-' && !/^-[lp]$/.test(code ?? '')) {
          this.shellCode([words[0]], run, 'trap runs this command line');
        }
        break;
      }
      case 'alias':
        for (const word of words) {
          const value = this.values.constant(word);
          const equals = value?.indexOf('=') ?? -1;
          if (value !== null && equals > 0) this.nested(value.slice(equals + 1), at, depth, evidence);
        }
        break;
      case 'cd':
      case 'pushd':
        this.cwdIsRoot = words.length === 0 || /^(?:\/|~\/?)$/.test(this.values.constant(words[0] as ShellWord) ?? '');
        break;
      default:
        break;
    }

    this.destructive(run);
    this.downloads(run);
    this.sockets(run);
    this.awkCommands(run);
    this.gitCommands(run);
    this.packageInstalls(run);
    this.fileAccess(run);
    this.persistence(run);
    if (dumpsEnvironment(program, args)) {
      this.findings.capability('env_read', at, evidence);
      this.findings.wholeEnvironmentRead(at, evidence);
    } else if (program === 'printenv') {
      this.findings.capability('env_read', at, evidence);
    }
    if (usesNetwork(program, args)) {
      this.findings.capability('network', at, evidence);
      const sent = words
        .map((word) => this.producesOfWord(word))
        .some((flags) => flags.environment || flags.credentials);
      if (sent)
        this.findings.issue(
          'exfiltration',
          at,
          'Sends credentials or the whole environment over the network.',
          evidence,
        );
    }
  }

  // --- code runners -------------------------------------------------------------------------------

  private shell(run: ProgramRun): void {
    const { call, args, words, at, evidence } = run;
    const source = shellSource(args);
    if (source.from === 'inline') {
      const code = words[source.index] as ShellWord;
      if (call.replacement && this.values.approximate(code).includes(call.replacement)) {
        this.findings.issue(
          'shell-from-input',
          at,
          'Runs a shell command line built from input lines (xargs, find -exec).',
          evidence,
        );
        return;
      }
      this.shellCode([code], run, 'the shell runs this command line');
    } else if (source.from === 'file') {
      this.scriptFile(words[source.index] as ShellWord, 'shell', at, evidence);
    } else if (call.replacement !== null) {
      this.findings.issue('shell-from-input', at, 'Runs shell code built from input lines (xargs).', evidence);
    } else {
      this.stdinCode(run, 'shell');
    }
  }

  private interpreter(interpreter: Interpreter, run: ProgramRun): void {
    const { program, args, words, at, evidence } = run;
    const source = codeSource(interpreter, args);
    switch (source.from) {
      case 'inline': {
        const word = words[source.index] as ShellWord;
        const code = source.attached ?? this.values.approximate(word);
        const flags = this.producesOfWord(word);
        const constant = source.attached ?? this.values.constant(word);
        if (
          !this.codeIssue(flags, at, evidence, `Runs ${program} code produced by a command substitution`) &&
          !(constant !== null && this.inlineCode(interpreter, constant, at, () => at))
        ) {
          this.findings.issue(
            'dynamic-code',
            at,
            constant === null
              ? `Runs inline ${program} code built from shell values, so a value with a quote in it rewrites the code (pass values as arguments or in the environment).`
              : interpreter === 'python' || interpreter === 'node'
                ? `Runs inline ${program} code that does not parse, so what it does cannot be proven.`
                : `Runs inline ${program} code, a language the hub has no parser for, so what it does cannot be proven.`,
            evidence,
          );
        }
        if (word.escaped)
          this.findings.issue('obfuscation', at, 'Writes inline code with escape sequences that hide it.', evidence);
        if (opensShellOverSocket(code)) {
          this.findings.issue(
            'reverse-shell',
            at,
            'Inline code connects a socket and runs a shell or commands over it.',
            evidence,
          );
        }
        break;
      }
      case 'encoded':
        this.findings.issue(
          'obfuscation',
          at,
          'Runs an encoded PowerShell command, which hides what it does.',
          evidence,
        );
        this.findings.issue(
          'dynamic-code',
          at,
          `Runs inline ${program} code instead of a file in the bundle.`,
          evidence,
        );
        break;
      case 'file':
        this.scriptFile(words[source.index] as ShellWord, program, at, evidence);
        break;
      case 'stdin':
        if (run.call.input) this.stdinCode(run, program);
        break;
      default:
        break;
    }
  }

  /** `bash file`, `python3 <(curl …)`, `deno run https://…`: the script a shell or interpreter runs. */
  private scriptFile(word: ShellWord, runner: string, at: number, evidence: string): void {
    const value = this.values.constant(word);
    if (value !== null) {
      if (/^(?:https?|ftp):\/\//i.test(value)) {
        this.findings.issue('download-and-run', at, `Runs a script ${runner} fetches from a URL.`, evidence);
      }
      this.producedRun(value, at, evidence);
      return;
    }
    const flags = this.producesOfWord(word);
    if (this.codeIssue(flags, at, evidence, `Runs, with ${runner}, the output of a process substitution`)) return;
    // `"$DIR/lib.sh"`, `"$(git --exec-path)/git-sh-setup"`: the file's own name is written out.
    const last = word.parts[word.parts.length - 1];
    if (last?.kind === 'text' && programName(last.text) !== '') return;
    if (this.values.fromScript(word) && this.values.ifUnset(word).every((value) => programName(value) !== '')) return;
    const printed = word.parts.some((part) => part.kind === 'substitution');
    this.findings.issue(
      'shell-from-input',
      at,
      printed
        ? `Runs, with ${runner}, code that a command prints at run time.`
        : `Runs, with ${runner}, a script named by a variable or input.`,
      evidence,
    );
  }

  /**
   * Python or JavaScript that a command runs inline, parsed in its own language and judged by its
   * rules, each finding at the line `lineOf` maps it to. False when it cannot be: another language,
   * no analyser for nested code, or code that does not parse (the caller then calls it dynamic code).
   */
  private inlineCode(interpreter: Interpreter, code: string, at: number, lineOf: (inner: number) => number): boolean {
    const language = interpreter === 'python' ? 'python' : interpreter === 'node' ? 'javascript' : null;
    if (language === null || !this.nestedCode || ++this.parses > MAX_NESTED_PARSES) return false;
    const analysis = this.nestedCode(language, code);
    if (analysis.issues.some((issue) => issue.kind === 'unparsable')) return false;
    for (const use of analysis.capabilities) this.findings.capability(use.capability, lineOf(use.line), use.evidence);
    for (const issue of analysis.issues)
      this.findings.issue(issue.kind, issue.line === null ? at : lineOf(issue.line), issue.message, issue.evidence);
    return true;
  }

  /** Code read from standard input by a shell or an interpreter: what feeds it decides. */
  private stdinCode(run: ProgramRun, runner: string): void {
    const { input } = run.call;
    if (!input) return;
    const { at, line, depth } = run;
    const evidence = input.kind === 'pipe' ? input.pipeline.text : run.evidence;
    const shell = runner === 'shell';
    switch (input.kind) {
      case 'pipe': {
        const upstream = input.upstream;
        if (upstream.download) {
          this.findings.issue(
            'download-and-run',
            at,
            `Pipes a download into ${shell ? 'a shell' : runner}, which runs whatever the server sends.`,
            evidence,
          );
        } else if (upstream.socket) {
          this.findings.issue(
            'reverse-shell',
            at,
            `Pipes a network connection into ${shell ? 'a shell' : runner}.`,
            evidence,
          );
        } else if (upstream.decode) {
          this.findings.issue(
            'obfuscation',
            at,
            `Decodes hidden code and pipes it into ${shell ? 'a shell' : runner}.`,
            evidence,
          );
        } else if (upstream.text !== null && shell) {
          this.nested(upstream.text, at, depth, evidence);
        } else if (shell) {
          this.findings.issue(
            'shell-from-input',
            at,
            'Pipes the output of a command into a shell, so what runs is decided at run time.',
            evidence,
          );
        } else {
          this.findings.issue('dynamic-code', at, `Runs ${runner} code piped in from another command.`, evidence);
        }
        return;
      }
      case 'heredoc': {
        if (shell && input.body) {
          this.nestedBody(input.body, line, depth);
          return;
        }
        const interpreter = interpreterOf(runner);
        const body = input.body;
        const literal = body !== null && body.namedChildren.every((child) => child?.type === 'heredoc_content');
        if (!(
          interpreter !== null &&
          body !== null &&
          literal &&
          this.inlineCode(interpreter, body.text, at, (inner) => line(body) + inner - 1)
        ))
          this.findings.issue('dynamic-code', at, `Runs inline ${runner} code fed on standard input.`, evidence);
        return;
      }
      case 'herestring':
        if (shell) this.shellCode([input.word], run, 'the shell reads this command line');
        else if (
          !this.codeIssue(this.producesOfWord(input.word), at, evidence, `Runs ${runner} code from a substitution`)
        ) {
          this.findings.issue('dynamic-code', at, `Runs inline ${runner} code fed on standard input.`, evidence);
        }
        return;
      case 'file': {
        const value = this.values.constant(input.word);
        if (value !== null) {
          if (/^\/dev\/(?:tcp|udp)\//.test(value))
            this.findings.issue('reverse-shell', at, 'Runs code read from a network connection.', evidence);
          else this.producedRun(value, at, evidence);
        } else if (
          !this.codeIssue(
            this.producesOfWord(input.word),
            at,
            evidence,
            `Runs, with ${runner}, the output of a process substitution`,
          )
        ) {
          this.findings.issue(
            'shell-from-input',
            at,
            `Runs, with ${runner}, code read from a file named at run time.`,
            evidence,
          );
        }
        return;
      }
    }
  }

  /** A command line a shell runs (`eval`, `sh -c`, `trap`, `su -c`, `watch`): parsed when constant. */
  private shellCode(words: ShellWord[], run: ProgramRun, what: string): void {
    const { at, evidence, depth } = run;
    if (words.some((word) => word.escaped)) {
      this.findings.issue(
        'obfuscation',
        at,
        'Writes shell code with escape sequences that hide what it runs.',
        evidence,
      );
    }
    // A line the script builds from its own values (`trap "rm -rf $tmp" EXIT`) has the shape it is
    // written in: its structure is analysed. Input or environment in it makes it shell-from-input.
    if (words.every((word) => this.values.fromScript(word))) {
      this.nested(words.map((word) => this.values.render(word)).join(' '), at, depth, evidence);
      return;
    }
    const flags = this.producesOf(words.map((word) => this.producesOfWord(word)));
    if (this.codeIssue(flags, at, evidence, `Runs the output of a command substitution as shell code (${what})`))
      return;
    if (words.length === 1 && printsItsOwnSetup(words[0] as ShellWord)) return;
    this.findings.issue('shell-from-input', at, `Runs a shell command line built at run time (${what}).`, evidence);
  }

  /** Reports code that comes from a download, a socket or a decoder; false when it comes from none. */
  private codeIssue(flags: Produces, at: number, evidence: string, what: string): boolean {
    if (flags.download)
      this.findings.issue('download-and-run', at, `${what}, and that command downloads it.`, evidence);
    else if (flags.socket)
      this.findings.issue('reverse-shell', at, `${what}, and that command reads it from a socket.`, evidence);
    else if (flags.decode)
      this.findings.issue('obfuscation', at, `${what}, and that command decodes hidden text.`, evidence);
    else return false;
    return true;
  }

  private source(word: ShellWord | undefined, run: ProgramRun): void {
    if (!word) return;
    const value = this.values.constant(word);
    if (value === '/dev/stdin' || value === '/proc/self/fd/0' || value === '-') {
      this.stdinCode(run, 'shell');
      return;
    }
    this.scriptFile(word, 'source', run.at, run.evidence);
  }

  /** Runs of a file the script downloaded or decoded, or of a program unpacked from a download. */
  private producedRun(path: string, at: number, evidence: string): void {
    const origin = this.produced.get(normalisePath(path));
    if (origin === 'download') {
      this.findings.issue('download-and-run', at, `Runs a file the script downloaded (${path}).`, evidence);
    } else if (origin === 'decode') {
      this.findings.issue('obfuscation', at, `Runs a file the script decoded from hidden text (${path}).`, evidence);
    } else if (path.includes('/') && this.unpacked.some((folder) => isUnder(normalisePath(path), folder))) {
      this.findings.issue('download-and-run', at, `Runs a program unpacked from a download (${path}).`, evidence);
    }
  }

  /** Parses shell code nested in a string (`eval`, `sh -c`) or a heredoc and applies every rule to it. */
  private nested(code: string, at: number, depth: number, evidence: string, line: Line = lines(at)): void {
    if (depth + 1 > MAX_NESTING) {
      this.findings.issue('obfuscation', at, `Nests shell code more than ${MAX_NESTING} levels deep.`, evidence);
      return;
    }
    if (++this.parses > MAX_NESTED_PARSES) {
      this.findings.issue('unparsable', at, 'Holds more nested shell code than can be analysed.', evidence);
      return;
    }
    const tree = this.grammars.parse('shell', code);
    try {
      if (firstSyntaxError(tree.rootNode)) {
        const message = 'Runs shell code that does not parse, so nothing about it can be proven.';
        this.findings.issue('unparsable', at, message, code);
        return;
      }
      this.inspect(tree.rootNode, line, depth + 1);
    } finally {
      tree.delete();
    }
  }

  /** A heredoc fed to a shell: its body is a script, with its own lines. */
  private nestedBody(body: SyntaxNode, line: Line, depth: number): void {
    this.nested(body.text, line(body), depth, body.text, lines(line.fixed, line.offset + body.startPosition.row));
  }

  /** Map key of a node: its id within its tree. */
  private nodeKey(node: SyntaxNode): string {
    let tree = this.trees.get(node.tree);
    if (tree === undefined) {
      tree = ++this.treeCount;
      this.trees.set(node.tree, tree);
    }
    return `${tree}:${node.id}`;
  }

  private findExec({ call, args, words, line, depth }: ProgramRun): void {
    for (let i = 0; i < args.length; i++) {
      if (!/^-(?:exec|execdir|ok|okdir)$/.test(args[i] as string)) continue;
      const end = args.findIndex((arg, j) => j > i && (arg === ';' || arg === '+'));
      const inner = words.slice(i + 1, end === -1 ? undefined : end);
      if (inner.length > 0) this.invoke({ ...call, words: inner, input: null, replacement: '{}' }, line, depth);
      if (end === -1) return;
      i = end;
    }
  }

  // --- rules by program ---------------------------------------------------------------------------

  private destructive({ call, program, args, words: written, at, evidence }: ProgramRun): void {
    // A command that runs only when a test proved where a variable points is judged with that proof.
    const proven = guardedPrefixes(call.node);
    const words = proven.size === 0 ? written : written.map((word) => withPrefixes(word, proven));
    const report = (message: string): void => this.findings.issue('destructive-command', at, message, evidence);
    const operands = (from = 0): ShellWord[] => {
      const list: ShellWord[] = [];
      let optionsEnded = false;
      for (let i = from; i < words.length; i++) {
        const arg = args[i] as string;
        if (!optionsEnded && arg === '--') optionsEnded = true;
        else if (optionsEnded || !arg.startsWith('-') || arg === '-') list.push(words[i] as ShellWord);
      }
      return list;
    };
    // `rm -rf *` empties the working folder: a build step in ./build, a disaster in / or ~.
    const dangerous = (word: ShellWord): boolean =>
      this.values
        .ifUnset(word)
        .some((value) => isDestructiveTarget(value) || (this.cwdIsRoot && /^(?:\.\/?|\.?\/?\*|\.\*)$/.test(value)));
    const recursive = hasFlag(args, 'rR', '--recursive');
    if (/^mkfs(?:\.\w+)?$|^mke2fs$|^mkswap$|^wipefs$|^blkdiscard$/.test(program)) {
      report(`Formats or wipes a disk (${program}).`);
      return;
    }
    switch (program) {
      case 'rm': {
        const targets = operands();
        if (args.includes('--no-preserve-root'))
          report('Deletes with --no-preserve-root, which removes the whole system.');
        else if (recursive && targets.some(dangerous)) {
          report('Deletes recursively a path that is the system, the home folder or a variable that may be empty.');
        } else if (targets.some((word) => isLogOrHistory(this.values.approximate(word)))) {
          report('Deletes logs or shell history, which only serves to hide what ran.');
        }
        break;
      }
      case 'chmod':
      case 'chown':
      case 'chgrp':
        if (recursive && operands().slice(1).some(dangerous))
          report(`Changes recursively (${program} -R) the system or the home folder.`);
        break;
      case 'mv':
        if (
          operands()
            .slice(0, -1)
            .some((word) => {
              const v = this.values.constant(word);
              return v !== null && v !== '' && isDestructiveTarget(v);
            })
        ) {
          report('Moves away the system or the home folder.');
        }
        break;
      case 'dd':
        if (args.some((arg) => arg.startsWith('of=') && isDevice(arg.slice(3))))
          report('Writes raw data onto a disk device with dd.');
        break;
      case 'shred':
        if (
          operands().some((word) => {
            const v = this.values.approximate(word);
            return isDevice(v) || isLogOrHistory(v);
          })
        ) {
          report('Shreds a disk device, logs or shell history.');
        }
        break;
      case 'truncate':
        if (operands().some((word) => isLogOrHistory(this.values.approximate(word))))
          report('Empties logs or shell history.');
        break;
      case 'find': {
        const start = args.findIndex((arg) => arg.startsWith('-') || arg === '(' || arg === '!');
        const roots = words.slice(0, start === -1 ? undefined : start);
        const deletes =
          args.includes('-delete') ||
          args.some((arg, i) => /^-exec(?:dir)?$/.test(arg) && /^(?:rm|shred)$/.test(programName(args[i + 1] ?? '')));
        if (deletes && roots.some(dangerous))
          report('Deletes every file under the system or the home folder with find.');
        break;
      }
      case 'crontab':
        if (args.includes('-r')) report("Removes the user's crontab (crontab -r).");
        break;
      case 'kill':
        if (args.some((arg, i) => arg === '-1' && i > 0 && (args[i - 1]?.startsWith('-') ?? false)))
          report('Kills every process of the user (kill -9 -1).');
        break;
      case 'killall5':
        report('Kills every process (killall5).');
        break;
      case 'shutdown':
      case 'reboot':
      case 'halt':
      case 'poweroff':
        report(`Shuts down or restarts the machine (${program}).`);
        break;
      case 'init':
      case 'telinit':
        if (args[0] === '0' || args[0] === '6') report(`Shuts down or restarts the machine (${program} ${args[0]}).`);
        break;
      case 'systemctl':
        if (args.some((arg) => /^(?:poweroff|reboot|halt|kexec)$/.test(arg)))
          report('Shuts down or restarts the machine (systemctl).');
        break;
      case 'iptables':
      case 'ip6tables':
        if (hasFlag(args, 'FX', '--flush', '--delete-chain')) report('Flushes the firewall rules.');
        break;
      case 'nft':
        if (args[0] === 'flush' && args[1] === 'ruleset') report('Flushes the firewall rules.');
        break;
      case 'ufw':
        if (args[0] === 'disable' || args[0] === 'reset') report('Turns the firewall off.');
        break;
      case 'history':
        if (hasFlag(args, 'c')) report('Clears the shell history, which only serves to hide what ran.');
        break;
      case 'ln':
        if (
          args.some((arg) => arg === '/dev/null') &&
          operands().some((word) => isLogOrHistory(this.values.approximate(word)))
        ) {
          report('Sends shell history or logs to /dev/null.');
        }
        break;
      case 'git': {
        const folder = optionValue('git', args, 'C');
        const clean = args.indexOf('clean');
        if (clean !== -1 && hasFlag(args.slice(clean + 1), 'f', '--force')) {
          const root = folder !== null ? isDestructiveTarget(folder) : this.cwdIsRoot;
          if (root) report('Deletes every untracked file of the system or home folder (git clean).');
        }
        break;
      }
      default:
        break;
    }
  }

  /** Downloads to a file (`curl -o`, `wget`) are remembered, so running the file later is seen. */
  private downloads({ program, args, call, at, evidence }: ProgramRun): void {
    const output = this.redirectTarget(call.redirects);
    if (DOWNLOADERS.has(program)) {
      const urls = args.filter((arg) => /^[a-z][a-z0-9+.-]*:\/\//i.test(arg));
      const files: string[] = [];
      if (program === 'curl') {
        const named = optionValue('curl', args, 'o', '--output');
        if (named && named !== '-') files.push(named);
        if (hasFlag(args, 'O', '--remote-name', '--remote-name-all')) files.push(...urls.map(urlFile));
      } else if (program === 'wget' || program === 'wget2') {
        const named = optionValue('wget', args, 'O', '--output-document');
        const folder = optionValue('wget', args, 'P', '--directory-prefix');
        if (named && named !== '-') files.push(named);
        else if (!named) files.push(...urls.map((url) => (folder ? `${folder}/${urlFile(url)}` : urlFile(url))));
      } else if (program === 'aria2c' || program === 'fetch') {
        const named = optionValue(program, args, 'o', '--out');
        files.push(...(named ? [named] : urls.map(urlFile)));
      }
      if (output) files.push(output);
      for (const file of files) this.produced.set(normalisePath(file), 'download');
      return;
    }
    if (output && decodes(program, args)) this.produced.set(normalisePath(output), 'decode');
    if (program === 'chmod' && args.some((arg) => /^(?:[ugoa]*\+[rwX]*x|[0-7]?[1357][0-7]{2})$/.test(arg))) {
      for (const arg of args) {
        if (this.produced.get(normalisePath(arg)) === 'download') {
          this.findings.issue('download-and-run', at, `Makes a downloaded file executable (${arg}).`, evidence);
        }
      }
    }
    if (extracts(program, args) && args.some((arg) => this.produced.get(normalisePath(arg)) === 'download')) {
      this.unpacked.push(
        normalisePath(optionValue('tar', args, 'C', '--directory') ?? optionValue('unzip', args, 'd') ?? '.'),
      );
    }
  }

  /**
   * git runs shell command lines its configuration names: `!` aliases, `core.sshCommand`,
   * `core.pager`, `core.editor`, `core.fsmonitor`, `diff.external` and the like, given with `-c` or
   * written with `git config`. Each constant one is parsed as shell.
   */
  private gitCommands({ program, args, at, depth, evidence }: ProgramRun): void {
    if (program !== 'git') return;
    const runs =
      /^(?:alias\.[^=]+|core\.(?:sshcommand|pager|editor|fsmonitor|hookspath|askpass)|diff\.external|(?:diff|merge|filter)\.[^=]+\.(?:command|textconv|driver|clean|smudge|process)|sequence\.editor|credential\.helper|gpg\.program)$/i;
    const commandOf = (key: string, value: string): string | null =>
      runs.test(key) ? (/^alias\./i.test(key) ? (value.startsWith('!') ? value.slice(1) : null) : value) : null;
    const settings: [string, string][] = [];
    args.forEach((arg, i) => {
      if (args[i - 1] === '-c' && arg.includes('='))
        settings.push([arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]);
    });
    const config = args.indexOf('config');
    if (config !== -1) {
      const operands = args.slice(config + 1).filter((arg) => !arg.startsWith('-'));
      if (operands.length >= 2) settings.push([operands[0] as string, operands[1] as string]);
    }
    for (const [key, value] of settings) {
      const command = commandOf(key, value);
      if (command !== null && command.trim() !== '') this.nested(command, at, depth, evidence);
    }
  }

  /**
   * awk runs shell command lines of its own: `system("…")`, `print | "…"`, `"…" | getline`. Each
   * constant one is parsed as shell; one built at run time is shell from input.
   */
  private awkCommands({ program, args, at, depth, evidence }: ProgramRun): void {
    if (!/^(?:awk|gawk|mawk|nawk)$/.test(program)) return;
    let index = 0;
    while (index < args.length && /^-[Fvf]$|^-/.test(args[index] as string))
      index += /^-[Fvf]$/.test(args[index] as string) ? 2 : 1;
    const text = args[index];
    if (text === undefined) return;
    const literal = '"((?:[^"\\\\]|\\\\.)*)"';
    const commands = [
      new RegExp(`\\bsystem\\s*\\(\\s*${literal}\\s*\\)`, 'g'),
      new RegExp(`\\|&?\\s*${literal}`, 'g'),
      new RegExp(`${literal}\\s*\\|&?\\s*getline`, 'g'),
    ].flatMap((pattern) => [...text.matchAll(pattern)].map((match) => (match[1] as string).replace(/\\(.)/g, '$1')));
    for (const command of commands) {
      // `print | "sh"`: what awk prints is the shell's program.
      if (SHELLS.has(programName(command.trim().split(/\s+/)[0] ?? '')))
        this.findings.issue('shell-from-input', at, 'Pipes lines awk builds into a shell.', evidence);
      else this.nested(command, at, depth, evidence);
    }
    if (commands.length === 0 && /\bsystem\s*\(|\|&?\s*getline|\bprint[f]?\b[^;}]*\|/.test(text))
      this.findings.issue('shell-from-input', at, 'Runs a shell command line awk builds at run time.', evidence);
  }

  private sockets({ program, args, at, evidence }: ProgramRun): void {
    if (/^(?:nc|ncat|netcat|nc\.traditional|nc\.openbsd|cryptcat)$/.test(program)) {
      if (hasFlag(args, 'ec', '--exec', '--sh-exec', '--lua-exec')) {
        this.findings.issue(
          'reverse-shell',
          at,
          `Wires a program to a network connection (${program} -e/-c).`,
          evidence,
        );
      }
    } else if (program === 'socat') {
      const network = args.some((arg) => /^(?:tcp|udp|sctp|openssl|ssl|socks|proxy)[\w-]*:/i.test(arg));
      if (network && args.some((arg) => /(?:^|[,!])(?:exec|system):/i.test(arg))) {
        this.findings.issue(
          'reverse-shell',
          at,
          'Wires a program to a network connection (socat EXEC/SYSTEM).',
          evidence,
        );
      }
    } else if ((program === 'awk' || program === 'gawk') && args.some((arg) => arg.includes('/inet/'))) {
      this.findings.issue('reverse-shell', at, 'Opens a network connection from awk (/inet/).', evidence);
    }
  }

  /** `pip install https://…`, `npm i -g github:…`, `npx https://…`: code installed from a URL. */
  private packageInstalls({ program, args, at, evidence }: ProgramRun): void {
    // The public registries' own index is where an install comes from anyway.
    const fromUrl = (spec: string): boolean =>
      /:\/\/|^(?:git|hg|svn|bzr)\+|^git:|@\s*(?:https?|file|git\+)/i.test(spec) &&
      !/^https:\/\/(?:pypi\.org\/simple|registry\.npmjs\.org)\/?$/i.test(spec);
    const npmUrl = (spec: string): boolean =>
      fromUrl(spec) ||
      /^(?:github|gitlab|bitbucket|gist):|\.(?:tgz|tar\.gz|tar)$/i.test(spec) ||
      /^[\w.-]+\/[\w.-]+(?:#.*)?$/.test(spec);
    // `--index-url=https://…`, `--registry=http://…`: an option's value names where the code comes from too.
    const operands = (from: number): string[] =>
      args
        .slice(from)
        .flatMap((arg) =>
          !arg.startsWith('-') ? [arg] : /^--?[\w-]+=/.test(arg) ? [arg.slice(arg.indexOf('=') + 1)] : [],
        );
    const pythonPip =
      interpreterOf(program) === 'python' && args[args.indexOf('-m') + 1] === 'pip' && args.includes('-m');
    const pip =
      /^pip\d*(?:\.\d+)?$/.test(program) || program === 'pipx' || pythonPip || (program === 'uv' && args[0] === 'pip');
    if (pip || program === 'uv' || program === 'poetry') {
      const install = args.findIndex((arg) => arg === 'install' || arg === 'add');
      const fromFlag = optionValue('uvx', args, '', '--from');
      if ((install !== -1 && operands(install + 1).some(fromUrl)) || (fromFlag !== null && fromUrl(fromFlag))) {
        this.findings.issue(
          'download-and-run',
          at,
          'Installs a Python package from a URL or a repository, which runs its build code.',
          evidence,
        );
      }
    } else if (program === 'uvx') {
      const fromFlag = optionValue('uvx', args, '', '--from');
      if ((fromFlag !== null && fromUrl(fromFlag)) || operands(0).slice(0, 1).some(fromUrl)) {
        this.findings.issue('download-and-run', at, 'Runs a Python package from a URL or a repository.', evidence);
      }
    } else if (/^(?:npm|pnpm|yarn|bun)$/.test(program)) {
      const verb = args.findIndex((arg) => /^(?:install|i|add|exec|x|dlx)$/.test(arg));
      // Installs name packages; `exec`, `x` and `dlx` name one package (or a local binary) and
      // then its own arguments; pnpm's and yarn's `exec` only run what is installed already.
      const local = args[verb] === 'exec' && (program === 'pnpm' || program === 'yarn');
      const named =
        verb === -1 || local
          ? []
          : /^(?:install|i|add)$/.test(args[verb] as string)
            ? operands(verb + 1)
            : [
                ...args
                  .slice(verb + 1)
                  .filter((arg) => /^--package=/.test(arg))
                  .map((arg) => arg.slice(10)),
                ...operands(verb + 1).slice(0, 1),
              ];
      if (named.some(npmUrl)) {
        this.findings.issue(
          'download-and-run',
          at,
          'Installs or runs a package from a URL, a repository or a tarball, which runs its scripts.',
          evidence,
        );
      }
    } else if (program === 'npx' || program === 'bunx' || program === 'pnpx') {
      const spec = operands(0)[0];
      if (spec && npmUrl(spec))
        this.findings.issue('download-and-run', at, 'Runs a package fetched from a URL or a repository.', evidence);
    } else if (program === 'cargo' && args[0] === 'install' && args.includes('--git')) {
      this.findings.issue('download-and-run', at, 'Builds and installs code from a repository.', evidence);
    }
  }

  /**
   * Code planted to run later: a file written into a persistence location (persistence-paths.ts),
   * a crontab installed, a systemd or launchd unit enabled, git hooks pointed elsewhere.
   */
  private persistence({ program, args, words, at, evidence }: ProgramRun): void {
    const operands = words
      .filter((_word, i) => !(args[i] ?? '').startsWith('-'))
      .map((w) => this.values.approximate(w));
    const written =
      program === 'tee' || (program === 'sed' && hasFlag(args, 'i', '--in-place'))
        ? operands
        : /^(?:cp|mv|install|ln|rsync|scp)$/.test(program)
          ? operands.slice(-1)
          : program === 'dd'
            ? args.filter((arg) => arg.startsWith('of=')).map((arg) => arg.slice(3))
            : [];
    const place = written.map(persistenceIn).find((what) => what !== null);
    if (place) this.findings.issue('persistence', at, `Writes to ${place}, which runs what it holds later.`, evidence);
    const schedules =
      (program === 'crontab' && !args.some((arg) => /^-[lre]$/.test(arg))) ||
      ((program === 'at' || program === 'batch') && args.length > 0) ||
      (program === 'systemctl' && args.some((arg) => /^(?:enable|link|preset)$/.test(arg))) ||
      (program === 'launchctl' && args.some((arg) => /^(?:load|bootstrap|submit|enable)$/.test(arg))) ||
      (program === 'git' && args.includes('config') && args.some((arg) => /^core\.hookspath$/i.test(arg)));
    if (schedules)
      this.findings.issue('persistence', at, `Installs something that runs later by itself (${program}).`, evidence);
  }

  private fileAccess({ program, args, words, at, evidence }: ProgramRun): void {
    const operands = args.flatMap((arg, i) => (!arg.startsWith('-') || arg === '-' ? [i] : []));
    if (FILE_WRITERS.has(program) && operands.length > 0) this.findings.capability('file_write', at, evidence);
    else if (program === 'sed' && hasFlag(args, 'i', '--in-place'))
      this.findings.capability('file_write', at, evidence);
    else if (extracts(program, args)) this.findings.capability('file_write', at, evidence);
    if (NON_READERS.has(program)) return;
    // `cp a b`: b is written, not read.
    const destination =
      program === 'cp' || program === 'mv' || program === 'install' ? operands[operands.length - 1] : -1;
    let credentials = false;
    for (const [i, arg] of args.entries()) {
      if (i === destination) continue;
      // `-d @file`, `--upload-file=file`, `-F key=@file`, `-i ~/.ssh/key`: the path is the tail.
      const paths = [arg, arg.slice(arg.lastIndexOf('@') + 1), arg.slice(arg.indexOf('=') + 1)];
      if (paths.some(isCredentialPath)) credentials = true;
      else if (paths.some(isEnvironmentFile)) {
        this.findings.capability('env_read', at, evidence);
        this.findings.wholeEnvironmentRead(at, evidence);
      } else if (
        FILE_READERS.has(program) &&
        operands.includes(i) &&
        outside(this.values.knownPrefix(words[i] as ShellWord))
      ) {
        this.findings.capability('file_read', at, evidence);
      }
    }
    if (words.length !== args.length || !credentials) return;
    this.findings.issue(
      'credentials-access',
      at,
      'Reads a file that holds credentials (SSH keys, cloud or registry tokens, .env).',
      evidence,
    );
    this.findings.capability('file_read', at, evidence);
    if (usesNetwork(program, args))
      this.findings.issue('exfiltration', at, 'Sends a credentials file over the network.', evidence);
  }

  // --- pipelines, statements, functions ------------------------------------------------------------

  private pipeline(node: SyntaxNode, line: Line): void {
    const stages = node.namedChildren.filter(
      (stage): stage is SyntaxNode => stage !== null && stage.type !== 'comment',
    );
    // `cat <<EOF | sh`: tree-sitter puts `| sh` inside the heredoc; the statement holding the heredoc is the first stage.
    if (node.child(0)?.type === '|') {
      const statement = node.parent?.parent;
      const body = statement?.type === 'redirected_statement' ? statement.childForFieldName('body') : null;
      if (body) stages.unshift(body);
    }
    const at = line(node);
    const evidence = node.text;
    const produced = stages.map((stage) => this.producesOfNode(stage));
    let upstream = NOTHING;
    for (const [i, stage] of stages.entries()) {
      const flags = produced[i] as Produces;
      if (i > 0) {
        const target = stage.type === 'redirected_statement' ? stage.childForFieldName('body') : stage;
        if (target?.type === 'command')
          this.inputs.set(this.nodeKey(target), { kind: 'pipe', upstream, pipeline: node });
        if (flags.network && (upstream.environment || upstream.credentials)) {
          this.findings.issue(
            'exfiltration',
            at,
            'Pipes credentials or the whole environment into a network command.',
            evidence,
          );
        }
        if (flags.extract && upstream.download) this.unpacked.push(normalisePath(this.extractFolder(stage) ?? '.'));
        if (upstream.download)
          for (const file of this.teeFiles(stage)) this.produced.set(normalisePath(file), 'download');
      }
      upstream = i === 0 ? flags : this.producesOf([upstream, flags]);
    }
    // `… | base64 -d > run.sh`: tree-sitter gives the redirection to the whole pipeline.
    const statement = this.statementOf.get(this.nodeKey(node));
    const output = statement ? this.redirectTarget(this.redirectsOf(statement)) : null;
    if (output && (upstream.download || upstream.decode))
      this.produced.set(normalisePath(output), upstream.download ? 'download' : 'decode');
    const code = produced.some((flags) => flags.code);
    const socket = produced.some((flags) => flags.socket);
    if (code && socket)
      this.findings.issue(
        'reverse-shell',
        at,
        'Connects a shell to a network connection through a pipeline.',
        evidence,
      );
  }

  private statement(node: SyntaxNode, line: Line): void {
    const body = node.childForFieldName('body');
    const redirects = this.redirectsOf(node);
    const at = line(node);
    const evidence = node.text;
    const command = body?.type === 'command' ? body : null;
    const program = command ? this.programOf(command) : null;
    const duplicates = redirects.some((redirect) => /[<>]&|&>|<>/.test(redirectOperator(redirect)));
    for (const redirect of redirects) {
      if (redirect.type !== 'file_redirect') continue;
      const operator = redirectOperator(redirect);
      for (const destination of redirect.childrenForFieldName('destination')) {
        if (!destination || destination.type === 'number') continue;
        const value = this.values.approximate(readWord(destination));
        if (/^\/dev\/(?:tcp|udp)\//.test(value)) {
          const runner =
            program !== null && (SHELLS.has(program) || interpreterOf(program) !== null || program === 'exec');
          if (runner || duplicates || program === null) {
            this.findings.issue('reverse-shell', at, 'Wires the shell to a network connection (/dev/tcp).', evidence);
          } else {
            this.findings.capability('network', at, evidence);
          }
          continue;
        }
        if (operator.includes('>')) {
          const place = persistenceIn(value);
          if (place)
            this.findings.issue('persistence', at, `Writes to ${place}, which runs what it holds later.`, evidence);
          if (isDevice(value)) this.findings.issue('destructive-command', at, 'Writes onto a disk device.', evidence);
          else if (isLogOrHistory(value) && !operator.includes('>>'))
            this.findings.issue(
              'destructive-command',
              at,
              'Overwrites logs or shell history, which only serves to hide what ran.',
              evidence,
            );
          else if (!NEUTRAL_DEVICES.test(value) && !/^&?\d+$/.test(value))
            this.findings.capability('file_write', at, evidence);
        } else if (operator === '<') {
          if (isCredentialPath(value)) {
            this.findings.issue(
              'credentials-access',
              at,
              'Reads a file that holds credentials (SSH keys, cloud or registry tokens, .env).',
              evidence,
            );
            if (program !== null && usesNetwork(program, []))
              this.findings.issue('exfiltration', at, 'Sends a credentials file over the network.', evidence);
          } else if (isEnvironmentFile(value)) {
            this.findings.capability('env_read', at, evidence);
            this.findings.wholeEnvironmentRead(at, evidence);
          } else if (outside(this.values.knownPrefix(readWord(destination)))) {
            this.findings.capability('file_read', at, evidence);
          }
        }
      }
    }
  }

  private functionDefinition(node: SyntaxNode, line: Line): void {
    const name = node.childForFieldName('name')?.text;
    const body = node.childForFieldName('body');
    if (!name || !body) return;
    let calls = 0;
    walk(body, (child) => {
      if (child.type === 'command' && child.childForFieldName('name')?.text === name) calls++;
    });
    if (calls >= 2 && /[|&]/.test(body.text)) {
      this.findings.issue(
        'destructive-command',
        line(node),
        'Defines a fork bomb: a function that starts copies of itself until the machine stops.',
        node.text,
      );
    }
  }

  // --- helpers -----------------------------------------------------------------------------------

  private redirectsOf(statement: SyntaxNode): SyntaxNode[] {
    return statement.childrenForFieldName('redirect').filter((redirect): redirect is SyntaxNode => redirect !== null);
  }

  /** Standard input given by a redirection: a heredoc, a herestring or `< file`. */
  private redirectInput(redirects: readonly SyntaxNode[]): Input | null {
    let input: Input | null = null;
    for (const redirect of redirects) {
      if (redirect.type === 'heredoc_redirect') {
        input = {
          kind: 'heredoc',
          body: redirect.namedChildren.find((child) => child?.type === 'heredoc_body') ?? null,
        };
      } else if (redirect.type === 'herestring_redirect') {
        const word = redirect.namedChildren[redirect.namedChildren.length - 1];
        if (word) input = { kind: 'herestring', word: readWord(word) };
      } else if (redirect.type === 'file_redirect' && redirectOperator(redirect) === '<') {
        const destination = redirect.childForFieldName('destination');
        if (destination) input = { kind: 'file', word: readWord(destination) };
      }
    }
    return input;
  }

  /** Where `>`/`>>` sends the command's output, when it is a file. */
  private redirectTarget(redirects: readonly SyntaxNode[]): string | null {
    for (const redirect of redirects) {
      if (redirect.type !== 'file_redirect' || redirect.childForFieldName('descriptor')) continue;
      const operator = redirectOperator(redirect);
      if (operator !== '>' && operator !== '>>' && operator !== '>|') continue;
      const destination = redirect.childForFieldName('destination');
      const value = destination ? this.values.constant(readWord(destination)) : null;
      if (value && !NEUTRAL_DEVICES.test(value)) return value;
    }
    return null;
  }

  private programOf(command: SyntaxNode): string | null {
    const first = command.childForFieldName('name')?.namedChildren[0];
    const value = first ? this.values.constant(readWord(first)) : null;
    return value === null ? null : programName(value);
  }

  private extractFolder(stage: SyntaxNode): string | null {
    const command = stage.type === 'redirected_statement' ? stage.childForFieldName('body') : stage;
    if (command?.type !== 'command') return null;
    const args = command
      .childrenForFieldName('argument')
      .map((arg) => (arg ? this.values.approximate(readWord(arg)) : ''));
    return optionValue('tar', args, 'C', '--directory') ?? optionValue('unzip', args, 'd');
  }

  private teeFiles(stage: SyntaxNode): string[] {
    const command = stage.type === 'redirected_statement' ? stage.childForFieldName('body') : stage;
    if (command?.type !== 'command' || this.programOf(command) !== 'tee') return [];
    return command.childrenForFieldName('argument').flatMap((arg) => {
      const value = arg ? this.values.constant(readWord(arg)) : null;
      return value && !value.startsWith('-') ? [value] : [];
    });
  }

  /** What a command substitution is known to print: a `mktemp` folder, the working folder, a program's path. */
  private substitutionValue(node: SyntaxNode): string | null {
    const command = node.namedChildren.find((child) => child?.type === 'command');
    if (!command || node.namedChildren.length !== 1) return null;
    const program = this.programOf(command);
    const args = command
      .childrenForFieldName('argument')
      .map((arg) => (arg ? this.values.constant(readWord(arg)) : null));
    if (program === 'mktemp') return NON_EMPTY;
    if (program === 'pwd') return '.';
    const last = args[args.length - 1];
    if ((program === 'which' || (program === 'command' && args[0] === '-v')) && last) return last;
    return null;
  }

  private producesOfWord(word: ShellWord): Produces {
    const parts = word.parts.flatMap((part) => (part.kind === 'substitution' ? [this.producesOfNode(part.node)] : []));
    return parts.length === 0 ? NOTHING : this.producesOf(parts);
  }

  private producesOf(list: readonly Produces[]): Produces {
    const merged: Produces = { ...NOTHING };
    for (const flags of list) {
      merged.download ||= flags.download;
      merged.socket ||= flags.socket;
      merged.decode ||= flags.decode;
      merged.environment ||= flags.environment;
      merged.credentials ||= flags.credentials;
      merged.code ||= flags.code;
      merged.network ||= flags.network;
      merged.extract ||= flags.extract;
    }
    merged.text = list.length === 1 ? (list[0] as Produces).text : null;
    return merged;
  }

  /** What the commands under `node` (a pipeline stage, a substitution) produce, read through their wrappers. */
  private producesOfNode(node: SyntaxNode): Produces {
    const memo = this.producesMemo.get(this.nodeKey(node));
    if (memo) return memo;
    const flags: Produces = { ...NOTHING };
    let commands = 0;
    walk(node, (child) => {
      if (child.type === 'command') {
        commands++;
        this.classify(child, flags);
      } else if (child.type === 'file_redirect') {
        const destination = child.childForFieldName('destination');
        const value = destination ? this.values.approximate(readWord(destination)) : '';
        if (/^\/dev\/(?:tcp|udp)\//.test(value)) flags.socket = flags.network = true;
        if (redirectOperator(child) === '<' && isCredentialPath(value)) flags.credentials = true;
        if (redirectOperator(child) === '<' && isEnvironmentFile(value)) flags.environment = true;
      }
    });
    if (commands !== 1) flags.text = null;
    this.producesMemo.set(this.nodeKey(node), flags);
    return flags;
  }

  private classify(command: SyntaxNode, flags: Produces): void {
    let words = this.split(
      [command.childForFieldName('name')?.namedChildren[0], ...command.childrenForFieldName('argument')]
        .filter((node): node is SyntaxNode => node !== null && node !== undefined)
        .map(readWord),
    );
    for (let guard = 0; guard < 8 && words.length > 0; guard++) {
      const name = this.values.constant(words[0] as ShellWord) ?? this.values.ifUnset(words[0] as ShellWord)[0] ?? '';
      const program = programName(name);
      const args = words.slice(1).map((word) => this.values.approximate(word));
      const wrapped = wrappedCommand(program, args);
      if (wrapped?.kind === 'command') {
        words = words.slice(1 + wrapped.index);
        continue;
      }
      if (DOWNLOADERS.has(program) || program === 'ssh') flags.download = true;
      if (SOCKET_TOOLS.has(program) || (program === 'openssl' && args[0] === 's_client')) flags.socket = true;
      if (decodes(program, args)) flags.decode = true;
      if (dumpsEnvironment(program, args) || args.some(isEnvironmentFile)) flags.environment = true;
      if (
        !NON_READERS.has(program) &&
        args.some((arg) => isCredentialPath(arg.replace(/^[^=@]*[=@]/, '')) || isCredentialPath(arg))
      )
        flags.credentials = true;
      if (usesNetwork(program, args)) flags.network = true;
      if (extracts(program, args)) flags.extract = true;
      const interpreter = interpreterOf(program);
      if (SHELLS.has(program)) flags.code ||= shellSource(args).from === 'stdin' || hasFlag(args, 'i');
      else if (interpreter) flags.code ||= codeSource(interpreter, args).from === 'stdin' || hasFlag(args, 'i');
      flags.text = this.constantOutput(program, words.slice(1), command);
      return;
    }
  }

  /** The output of `echo text`, `printf text` or `cat <<'EOF'` when it is a constant. */
  private constantOutput(program: string, args: ShellWord[], command: SyntaxNode): string | null {
    if (program === 'echo' || program === 'printf') {
      const values = args.map((word) => this.values.constant(word));
      if (values.some((value) => value === null)) return null;
      const text = (values as string[]).filter(
        (value, i) => !(program === 'echo' && i === 0 && /^-[neE]+$/.test(value)),
      );
      return program === 'printf' ? (text[0] ?? '') : text.join(' ');
    }
    if (program === 'cat' && args.length === 0) {
      const statement = this.statementOf.get(this.nodeKey(command));
      const heredoc = statement
        ? this.redirectsOf(statement).find((redirect) => redirect.type === 'heredoc_redirect')
        : undefined;
      return heredoc?.namedChildren.find((child) => child?.type === 'heredoc_body')?.text ?? null;
    }
    return null;
  }
}

/** The operator of a redirection (`>`, `>>`, `<`, `>&`, `&>`…). */
function redirectOperator(redirect: SyntaxNode): string {
  for (let i = 0; i < redirect.childCount; i++) {
    const child = redirect.child(i);
    if (child && !child.isNamed && /^[<>&|]+$/.test(child.type)) return child.type;
  }
  return '';
}

/**
 * `$a$b`, `${X}url`, `c$@url`: a command name glued from expansions and text. `"$VENV/bin/pip"` and
 * `./$NAME` are paths, not pieces.
 */
/** Programs that pass on data they are given or read (what they print is anyone's), and interpreters. */
const DATA_PASSERS = new Set(
  'cat tac echo printf head tail sed awk gawk tr cut rev xargs jq yq base64 base32 xxd od openssl gpg gunzip zcat tee envsubst sort uniq grep env'.split(
    ' ',
  ),
);

/**
 * `eval "$(ssh-agent -s)"`, `eval "$(pyenv init -)"`: a constant command of a program that prints
 * its own shell setup, the idiom such tools document. Not a program that passes on data, a shell
 * or an interpreter (they print whatever they are given), and nothing built at run time.
 */
function printsItsOwnSetup(word: ShellWord): boolean {
  const [part] = word.parts;
  if (word.parts.length !== 1 || part?.kind !== 'substitution') return false;
  const inner = part.node.text.replace(/^\$\(|^`|\)$|`$/g, '').trim();
  if (/[$`<>|;&]/.test(inner)) return false;
  const program = programName(inner.split(/\s+/)[0] ?? '');
  return (
    /^[\w.+-]+$/.test(program) && !DATA_PASSERS.has(program) && !SHELLS.has(program) && interpreterOf(program) === null
  );
}

/** What a program's name or path can be spelt with (a name with a space, a colon or a brace runs nothing). */
const PROGRAM_NAME = /^[\w./+@~-]+$/;

function builtFromPieces(word: ShellWord): boolean {
  const dynamic = word.parts.filter((part) => part.kind !== 'text').length;
  if (dynamic >= 2) return true;
  return word.parts.some((part, i) => {
    const next = word.parts[i + 1];
    if (!next) return false;
    if (part.kind !== 'text' && next.kind === 'text') return !next.text.startsWith('/');
    if (part.kind === 'text' && next.kind !== 'text') return !part.text.endsWith('/');
    return false;
  });
}

/** A path outside the skill's folder as written: absolute or in the home folder (a computed one is the script's own). */
const outside = (path: string): boolean => /^(?:\/|~)/.test(path) && !NEUTRAL_DEVICES.test(path);

const normalisePath = (path: string): string => path.replace(/^(?:\.\/)+/, '').replace(/\/+$/, '') || '.';

const isUnder = (path: string, folder: string): boolean =>
  folder === '.' ? !path.startsWith('/') && !path.startsWith('~') : path === folder || path.startsWith(`${folder}/`);

/** The name curl -O or wget gives a downloaded file: the URL's last path segment. */
function urlFile(url: string): string {
  const path = url.replace(/[?#].*$/, '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return path.slice(path.lastIndexOf('/') + 1) || 'index.html';
}

/** Inline code that opens a socket and hands it a shell or a process (the classic one-liner reverse shells). */
function opensShellOverSocket(code: string): boolean {
  const socket =
    /\bsocket\b|fsockopen|TCPSocket|IO::Socket|\bnet\.(?:connect|Socket|createConnection)|require\(['"]net['"]\)|\/dev\/tcp\//.test(
      code,
    );
  const shell =
    /dup2|pty\.spawn|subprocess|\/bin\/(?:ba|z|da)?sh\b|\bexec\b|popen|spawn\(|system\(|child_process|proc_open|cmd\.exe/.test(
      code,
    );
  return socket && shell;
}

/** `[[ "$DIR" == /tmp/* ]]`: the variable and the constant prefix its value was tested to have. */
const PREFIX_TEST = /^\[\[\s*"?\$\{?([A-Za-z_]\w*)\}?"?\s*==?\s*"?([^"*?[\s]+)"?\*\s*\]\]$/;
/** Folders whose every subfolder is scratch: proving a path is under one proves it is not precious. */
const SCRATCH_FOLDERS = new Set(['/tmp', '/var/tmp', '/dev/shm']);

/**
 * The variables a command's guards prove to start with a safe prefix: the command is the right
 * side of `test && command`, or in the body of `if test; then …`. A prefix is safe when it names a
 * folder (it ends with `/`) that is scratch, relative to the working folder, or three levels deep.
 */
function guardedPrefixes(node: SyntaxNode): Map<string, string> {
  const proven = new Map<string, string>();
  const learn = (condition: SyntaxNode | null | undefined): void => {
    const test = condition && PREFIX_TEST.exec(condition.text.trim());
    if (!test) return;
    const [, name, prefix] = test as unknown as [string, string, string];
    const folder = prefix.replace(/\/+$/, '');
    const safe =
      prefix.endsWith('/') &&
      folder !== '' &&
      (SCRATCH_FOLDERS.has(folder) ||
        (!/^[/~$]/.test(folder) && !folder.split('/').includes('..')) ||
        (folder.startsWith('/') && folder.split('/').length > 3 && !isDestructiveTarget(folder)));
    if (safe) proven.set(name, prefix);
  };
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'list' && parent.child(1)?.type === '&&' && parent.namedChild(1)?.id === child.id)
      learn(parent.namedChild(0));
    // The then-body only: not the condition itself, nor an elif or else branch; one test decides.
    const conditions =
      parent.type === 'if_statement'
        ? parent.childrenForFieldName('condition').filter((condition) => condition?.isNamed)
        : [];
    if (
      conditions.length === 1 &&
      conditions[0]?.id !== child.id &&
      child.type !== 'elif_clause' &&
      child.type !== 'else_clause'
    )
      learn(conditions[0]);
  }
  return proven;
}

/** The word with each proven variable read as its prefix and one more name (`/tmp/x`). */
function withPrefixes(word: ShellWord, proven: ReadonlyMap<string, string>): ShellWord {
  return {
    ...word,
    parts: word.parts.map((part) =>
      part.kind === 'variable' && part.expansion === 'plain' && proven.has(part.name)
        ? { kind: 'text', text: `${proven.get(part.name)}x` }
        : part,
    ),
  };
}
