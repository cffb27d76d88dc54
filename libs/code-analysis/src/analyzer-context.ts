/** What a language analyser is given, and what it answers; the dispatcher is code-analyzer.ts. */
import type { FileAnalysis, ShellCommandAnalysis } from './analysis.types';
import type { Grammars } from './grammars';

/** What every language analyser is given besides its source text. */
export interface AnalyzerContext {
  grammars: Grammars;
  /** Path of the file inside the bundle. */
  path: string;
  /** What a constant shell command line found at `line` of this file does. */
  shell(command: string, line: number): ShellCommandAnalysis;
}

/** A language analyser's answer; path and language are added by the dispatcher. */
export type LanguageAnalysis = Omit<FileAnalysis, 'path' | 'language'>;
