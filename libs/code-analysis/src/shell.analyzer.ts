/** Placeholder until the shell analyser lands: reports nothing (never shipped like this). */
import type { ShellCommandAnalysis, SourceLocation } from './analysis.types';
import type { AnalyzerContext, LanguageAnalysis } from './code-analyzer';
import type { Grammars } from './grammars';

export function analyzeShell(_text: string, _context: AnalyzerContext): LanguageAnalysis {
  return { capabilities: [], issues: [], comments: [] };
}

export function analyzeShellCommand(_command: string, _grammars: Grammars, _at: SourceLocation): ShellCommandAnalysis {
  return { capabilities: [], issues: [] };
}
