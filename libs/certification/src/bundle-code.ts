/** The bundle's files as the code analyser sees them, computed once per certification for C11 and C12. */
import type { Bundle } from '@skillhub/bundle';
import {
  classifyFile,
  embeddedCode,
  type CodeAnalyzer,
  type FileAnalysis,
  type FileKind,
  type ShellCommandAnalysis,
} from '@skillhub/code-analysis';
import type { NormalizedSkill } from '@skillhub/skill-formats';
import { lineOfFirstMatch, scannedText } from './scanned-text';
import { escapeRegExp } from './checks/server-location';

export interface BundleCode {
  /** Every file of the bundle, by path, with what it is. */
  kinds: ReadonlyMap<string, FileKind>;
  /** One per code file and one per piece of code embedded in another file (embeddedCode), in bundle order. */
  analyses: readonly FileAnalysis[];
  /** What each program a SwarmKit command skill runs does (its argv, run without a shell). */
  commands: readonly ShellCommandAnalysis[];
}

export function analyzeBundle(bundle: Bundle, analyzer: CodeAnalyzer, skill: NormalizedSkill | null): BundleCode {
  const kinds = new Map<string, FileKind>();
  const analyses: FileAnalysis[] = [];
  for (const file of bundle.files) {
    const kind = classifyFile(file.path, file.content);
    kinds.set(file.path, kind);
    if (kind.kind === 'code') analyses.push(analyzeFile(analyzer, file.path, file.content, kind.language));
    // Instructions, notebooks, manifests and build files hold code too: the agent or a tool runs it.
    if (kind.kind === 'text') {
      const { text } = scannedText(file);
      for (const piece of embeddedCode(file.path, text)) analyses.push(analyzer.analyzeEmbedded(file.path, piece));
    }
  }
  const commands = (skill?.commands ?? []).map((command) => {
    const line = lineOfFirstMatch(bundle, command.declaredIn, new RegExp(`\\b${escapeRegExp(command.name)}\\b`));
    return analyzer.analyzeArgv(command.argv, { file: command.declaredIn, line: line ?? 1 });
  });
  return { kinds, analyses, commands };
}

/** Fail closed: a file the analyser chokes on is a file nothing could be proven about. */
function analyzeFile(
  analyzer: CodeAnalyzer,
  path: string,
  content: Buffer,
  language: Extract<FileKind, { kind: 'code' }>['language'],
): FileAnalysis {
  try {
    return analyzer.analyzeFile(path, content, language);
  } catch {
    const message = 'The code analyser could not read this file, so nothing about it can be proven.';
    const issue = { kind: 'unparsable' as const, file: path, line: null, message, evidence: '' };
    return { path, language, capabilities: [], issues: [issue], comments: [] };
  }
}
