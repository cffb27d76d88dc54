/**
 * A call as the Python rules see it (python-rules.ts): its callee, receiver and arguments, and
 * what the rules may ask of the analyser about them.
 */
import type { CapabilityKind, IssueKind, ShellCommandAnalysis } from './analysis.types';
import type { SyntaxNode } from './grammars';
import type { PythonFindings } from './python-findings';
import type { PathInfo, Value } from './python-values';

/** What the rules may ask of the evaluator. */
export interface Interpreter {
  readonly findings: PythonFindings;
  /** The file's source, as parsed. */
  readonly source: string;
  argumentValue(argument: Argument): Value;
  text(node: SyntaxNode): string;
  /** `value.name`, resolved as the evaluator resolves attributes. */
  member(value: Value, name: string): Value;
  /** A module reached by its name at run time. */
  importedModule(node: SyntaxNode, name: string): Value;
  /** Flags a path that names a credential store; true when it does. */
  checkCredentialPath(node: SyntaxNode, path: PathInfo): boolean;
  /** A key that names the same file wherever it is used. */
  pathKey(argument: Argument | null, value: Value): string | null;
  /**
   * The folders a recursive function that lists `folder` (one of its parameters) is first called
   * with: what it walks. Null when the listing is not of that shape.
   */
  recursiveFolder(call: SyntaxNode, folder: SyntaxNode): Value | null;
  /** What a constant shell command line found at `line` does (the shell analyser). */
  shell(command: string, line: number): ShellCommandAnalysis;
}

/** An argument as written (evaluated on demand) or already known (a forwarded argument). */
export type Argument = { node: SyntaxNode } | { value: Value };

export interface ArgumentList {
  positional: Argument[];
  keywords: Map<string, Argument>;
  /** `*args` or `**kwargs` whose contents cannot be seen. */
  hidden: boolean;
}

/** One call of a function the rules know, as the rules see it. */
export class CallSite {
  constructor(
    readonly py: Interpreter,
    /** The call (or the call that forwards it, `asyncio.to_thread(subprocess.run, …)`): evidence and line. */
    readonly node: SyntaxNode,
    readonly callee: string,
    /** The object a method is called on. */
    readonly receiver: Value | null,
    readonly args: ArgumentList,
  ) {}

  argument(index: number, keyword?: string): Argument | null {
    return (keyword !== undefined ? this.args.keywords.get(keyword) : undefined) ?? this.args.positional[index] ?? null;
  }

  /** The value of an argument, or null when the call does not pass it. */
  value(index: number, keyword?: string): Value | null {
    const argument = this.argument(index, keyword);
    return argument ? this.py.argumentValue(argument) : null;
  }

  keyword(name: string): Value | null {
    const argument = this.args.keywords.get(name);
    return argument ? this.py.argumentValue(argument) : null;
  }

  /** Positional values from `index` on, or null when `*args` hides some. */
  rest(index: number): Value[] | null {
    if (this.args.hidden) return null;
    return this.args.positional.slice(index).map((argument) => this.py.argumentValue(argument));
  }

  /** The syntax node of an argument, when it was written here. */
  argumentNode(index: number, keyword?: string): SyntaxNode | null {
    const argument = this.argument(index, keyword);
    return argument && 'node' in argument ? argument.node : null;
  }

  capability(kind: CapabilityKind): void {
    this.py.findings.capability(kind, this.node);
  }

  issue(kind: IssueKind, message: string): void {
    this.py.findings.issue(kind, this.node, message);
  }
}
