/** Placeholder until the JavaScript analyser lands: reports nothing (never shipped like this). */
import type { AnalyzerContext, LanguageAnalysis } from './code-analyzer';

export function analyzeJavaScript(
  _text: string,
  _context: AnalyzerContext,
  _language: 'javascript' | 'typescript',
): LanguageAnalysis {
  return { capabilities: [], issues: [], comments: [] };
}
