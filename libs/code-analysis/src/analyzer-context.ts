/** What a language analyser is given, and what it answers; the dispatcher is code-analyzer.ts. */
import type { FileAnalysis, ShellCommandAnalysis } from './analysis.types';
import type { Grammars } from './grammars';
import type { NestedCode } from './shell-inspector';
import type { LocalModules } from './javascript-modules';

/** What every language analyser is given besides its source text. */
export interface AnalyzerContext {
  grammars: Grammars;
  /** Path of the file inside the bundle. */
  path: string;
  /** What a constant shell command line found at `line` of this file does. */
  shell(command: string, line: number): ShellCommandAnalysis;
  /** What Python or JavaScript a shell command runs inline does (`python3 -c`, `node -e`, a heredoc). */
  code?: NestedCode;
  /**
   * What the bundle's own JavaScript modules export (javascript-modules.ts, computed once per
   * bundle), so that a call of something imported from `./util.js` is judged as what it is.
   */
  localModules?: LocalModules;
}

/** A language analyser's answer; path and language are added by the dispatcher. */
export type LanguageAnalysis = Omit<FileAnalysis, 'path' | 'language'>;
