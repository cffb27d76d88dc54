/** Placeholder until the Python analyser lands: reports nothing (never shipped like this). */
import type { AnalyzerContext, LanguageAnalysis } from './code-analyzer';

export function analyzePython(_text: string, _context: AnalyzerContext): LanguageAnalysis {
  return { capabilities: [], issues: [], comments: [] };
}
