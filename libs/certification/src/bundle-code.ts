/** The bundle's files as the code analyser sees them, computed once per certification for C11 and C12. */
import type { Bundle, BundleFile } from '@skillhub/bundle';
import {
  classifyFile,
  embeddedCode,
  fileRunBy,
  filesRunIn,
  type Language,
  type RanFile,
  type CodeAnalyzer,
  type FileAnalysis,
  type FileKind,
  type LocalModules,
  type ShellCommandAnalysis,
} from '@skillhub/code-analysis';
import type { NormalizedSkill } from '@skillhub/skill-formats';
import type { DetonationOutput } from './detonation-result';
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

/** `outputs`: what the detonation saw the skill's programs print, which the agent reads and may run next. */
export function analyzeBundle(
  bundle: Bundle,
  analyzer: CodeAnalyzer,
  skill: NormalizedSkill | null,
  outputs: readonly DetonationOutput[] = [],
): BundleCode {
  const kinds = new Map<string, FileKind>();
  const analyses: FileAnalysis[] = [];
  const paths = new Set(bundle.files.map((file) => file.path));
  const ran: RanFile[] = [];
  for (const file of bundle.files) kinds.set(file.path, classifyFile(file.path, file.content));
  // What the bundle's JavaScript modules export to each other: a sink exported by one is judged where another calls it.
  const modules = analyzer.localModules(
    bundle.files.flatMap((file) => {
      const kind = kinds.get(file.path);
      return kind?.kind === 'code' ? [{ path: file.path, content: file.content, language: kind.language }] : [];
    }),
  );
  for (const file of bundle.files) {
    const kind = kinds.get(file.path) as FileKind;
    if (kind.kind === 'code') {
      analyses.push(analyzeFile(analyzer, file.path, file.content, kind.language, modules));
      ran.push(...filesRunIn(scannedText(file).text, file.path, paths));
    }
    // Instructions, notebooks, manifests and build files hold code too: the agent or a tool runs it.
    if (kind.kind === 'text') {
      for (const piece of embeddedCode(file.path, scannedText(file).text)) {
        analyses.push(analyzer.analyzeEmbedded(file.path, piece));
        if (piece.origin === 'code') ran.push(...filesRunIn(piece.code, file.path, paths));
      }
    }
  }
  for (const server of skill?.mcpServers ?? []) ran.push(...runBy(server.command ?? [], paths, server.cwd));
  for (const command of skill?.commands ?? []) ran.push(...runBy(command.argv, paths, command.cwd));
  reclassifyRanFiles(bundle, analyzer, ran, kinds, analyses, modules);
  const files = new Map(bundle.files.map((file) => [file.path, file]));
  const texts = new Map<string, string>();
  exfiltrationAcrossFiles(analyses, kinds, (path) => {
    let text = texts.get(path);
    if (text === undefined) {
      const file = files.get(path);
      texts.set(path, (text = file ? scannedText(file).text : ''));
    }
    return text;
  });
  analyses.push(...outputs.flatMap((output) => outputAnalyses(analyzer, output, paths)));
  const commands = (skill?.commands ?? []).map((command) => {
    const line = lineOfFirstMatch(bundle, command.declaredIn, new RegExp(`\\b${escapeRegExp(command.name)}\\b`));
    return analyzer.analyzeArgv(command.argv, { file: command.declaredIn, line: line ?? 1 });
  });
  return { kinds, analyses, commands };
}

const runBy = (argv: readonly string[], paths: ReadonlySet<string>, cwd: string | null): RanFile[] => {
  const hit = fileRunBy(argv, paths, cwd ?? '');
  return hit ? [hit] : [];
};

const FAMILY: Readonly<Record<Language, string>> = {
  python: 'python',
  shell: 'shell',
  javascript: 'javascript',
  typescript: 'javascript',
  tsx: 'javascript',
};

/**
 * A file an interpreter runs is code in that interpreter's language, whatever its name: `node
 * server.txt` makes server.txt JavaScript, `sh config.json` makes config.json a shell script, and
 * `perl notes.txt` a file the hub cannot analyse.
 */
function reclassifyRanFiles(
  bundle: Bundle,
  analyzer: CodeAnalyzer,
  ran: readonly RanFile[],
  kinds: Map<string, FileKind>,
  analyses: FileAnalysis[],
  modules: LocalModules,
): void {
  const done = new Set<string>();
  for (const { path, language, by } of ran) {
    const kind = kinds.get(path);
    const key = `${path}\u0000${language}`;
    if (done.has(key) || kind === undefined || kind.kind === 'unanalysable') continue;
    done.add(key);
    if (kind.kind === 'code' && (language === null || FAMILY[kind.language] === FAMILY[language])) continue;
    const file = bundle.files.find((candidate) => candidate.path === path) as BundleFile;
    if (kind.kind !== 'code') {
      // What was read as a document is a program: its embedded pieces give way to the whole file.
      for (let index = analyses.length - 1; index >= 0; index--)
        if (analyses[index]?.path === path) analyses.splice(index, 1);
    }
    if (language === null) {
      kinds.set(path, {
        kind: 'unanalysable',
        reason: `run by \`${evidenceOf(by)}\`, in a language the hub cannot parse`,
      });
      continue;
    }
    if (kind.kind !== 'code') kinds.set(path, { kind: 'code', language });
    analyses.push(analyzeFile(analyzer, path, file.content, language, modules));
  }
}

/**
 * Exfiltration is judged per file by the analyser (secrets read, and the network used, in one
 * file); split over two linked files (one module reads `~/.aws/credentials` or the whole
 * environment, another posts it, and one imports, runs or names the other, or a third names both)
 * it is the same flow.
 * Two files that only sit in one bundle (a workspace's ingest script that copies the environment
 * for a child process, and a server that fetches pages) share no data, and are not one flow.
 */
function exfiltrationAcrossFiles(
  analyses: FileAnalysis[],
  kinds: ReadonlyMap<string, FileKind>,
  textOf: (path: string) => string,
): void {
  const code = analyses.filter((analysis) => kinds.get(analysis.path)?.kind === 'code');
  if (code.some((analysis) => analysis.issues.some((issue) => issue.kind === 'exfiltration'))) return;
  const sources = code.flatMap((analysis) => {
    const credentials = analysis.issues.find((issue) => issue.kind === 'credentials-access')?.line;
    const line = credentials ?? analysis.environmentRead ?? null;
    const what = credentials !== undefined ? 'credentials' : 'the whole environment';
    return line === null ? [] : [{ path: analysis.path, line, what }];
  });
  // Each file's text read once, and each (file, named file) pair tested once, however many pairs ask.
  const named = new Map<string, boolean>();
  const refers = (from: string, to: string): boolean => {
    const key = `${from}\n${to}`;
    let answer = named.get(key);
    if (answer === undefined) named.set(key, (answer = names(textOf(from), to)));
    return answer;
  };
  for (const source of sources) {
    for (const analysis of code) {
      if (analysis.path === source.path) continue;
      const network = analysis.capabilities.find((use) => use.capability === 'network');
      if (!network) continue;
      const linked =
        refers(analysis.path, source.path) ||
        refers(source.path, analysis.path) ||
        code.some((third) => refers(third.path, source.path) && refers(third.path, analysis.path));
      if (!linked) continue;
      analysis.issues.push({
        kind: 'exfiltration',
        file: analysis.path,
        line: network.line,
        message: `Sends data over the network, and ${source.path} (line ${source.line}), which it is linked to, reads ${source.what}: read in one file and sent from another, it leaves the machine all the same.`,
        evidence: network.evidence,
      });
      return;
    }
  }
}

/** Whether code names another file of the bundle: imports or requires its module, or names the file. */
function names(text: string, path: string): boolean {
  const file = path.slice(path.lastIndexOf('/') + 1);
  const module = escapeRegExp(file.replace(/\.[^.]+$/, ''));
  return new RegExp(
    `(?:\\b(?:import|from)\\s+[\\w.]*\\b${module}\\b|(?:require\\(|import\\(|from)\\s*['"][^'"]*\\b${module}(?:\\.\\w+)?['"]|\\b${escapeRegExp(file)}\\b)`,
  ).test(text);
}

/**
 * Commands in what a program printed (a block that decodes "the installation instructions on the
 * fly" prints them), judged as instructions are, at the program's own line.
 */
function outputAnalyses(analyzer: CodeAnalyzer, output: DetonationOutput, paths: ReadonlySet<string>): FileAnalysis[] {
  if (output.file === null || !paths.has(output.file)) return [];
  const file = output.file;
  const line = output.line ?? 1;
  return embeddedCode('output.txt', output.text).map((piece) => {
    const analysis = analyzer.analyzeEmbedded(file, { ...piece, line: 1 });
    const issues = analysis.issues.map((issue) => ({
      ...issue,
      line,
      message: `Run in the sandbox, ${output.what} prints a command that the agent reads next: ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`,
    }));
    return { ...analysis, issues };
  });
}

const evidenceOf = (text: string): string => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

/** Fail closed: a file the analyser chokes on is a file nothing could be proven about. */
function analyzeFile(
  analyzer: CodeAnalyzer,
  path: string,
  content: Buffer,
  language: Extract<FileKind, { kind: 'code' }>['language'],
  modules: LocalModules,
): FileAnalysis {
  try {
    return analyzer.analyzeFile(path, content, language, modules);
  } catch {
    const message = 'The code analyser could not read this file, so nothing about it can be proven.';
    const issue = { kind: 'unparsable' as const, file: path, line: null, message, evidence: '' };
    return { path, language, capabilities: [], issues: [issue], comments: [] };
  }
}
