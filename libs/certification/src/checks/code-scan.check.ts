/**
 * C11 code: a static, line-by-line scan of the bundle's code (and of its config files, for
 * secrets), compared with the permissions a Kazma manifest declares. Also Kazma's code-side
 * score deductions. Nothing is executed or imported.
 */
import type { BundleFile } from '@skillhub/bundle';
import type { Check } from '../check';
import { newFinding, type Finding } from '../finding';
import type { ScoreDeduction } from '../kazma-score';
import { KAZMA_PENALTIES } from '../kazma-score';
import { extensionOf, lineAtIndex, MAX_SCANNED_BYTES, scannedText } from '../scanned-text';
import {
  ASSIGNMENT,
  BASE64_DECODE,
  BASE64_EXEC_RULE,
  CODE_RULES,
  CODE_SINK,
  isCodeFile,
  isConfigFile,
  isPythonFile,
  KAZMA_PATTERNS,
  type CodeRule,
} from './code-rules';

/** Long (minified) lines are matched in pieces this long, overlapping so that no short match is cut in two. */
const PIECE_LENGTH = 4096;
const PIECE_OVERLAP = 256;
/** Lines listed per rule and file; the last one listed says how many more there are. */
const MAX_LINES_LISTED = 10;
/** Variables followed from a base64 decode to a later eval/exec, per file. */
const MAX_TRACKED_VARIABLES = 100;

const SECRET_RULES = CODE_RULES.filter((rule) => rule.secret);
/** Rules with an `accept` look at every match of a line, not just the first (a placeholder may come first). */
const GLOBAL_PATTERNS = new Map(
  CODE_RULES.filter((rule) => rule.accept).map((rule) => [
    rule,
    new RegExp(rule.pattern.source, `${rule.pattern.flags}g`),
  ]),
);

interface FileScan {
  findings: Finding[];
  deductions: ScoreDeduction[];
}

export const codeScanCheck: Check = {
  id: 'C11',
  decides: [],
  appliesToManifestOnly: false,
  run({ bundle, skill }) {
    // Only Kazma's permission vocabulary says whether network or file use was declared.
    const permissions = skill?.format === 'kazma' ? new Set(skill.permissions) : null;
    const codeRules = CODE_RULES.filter(
      (rule) => !rule.unlessPermission || (permissions !== null && !permissions.has(rule.unlessPermission)),
    );
    const scans = bundle.files.flatMap((file): FileScan[] => {
      const extension = extensionOf(file.path);
      if (isCodeFile(extension, file.content)) {
        return [scanFile(file, codeRules, { code: true, python: isPythonFile(extension) })];
      }
      if (isConfigFile(extension, file.path)) return [scanFile(file, SECRET_RULES, { code: false, python: false })];
      return [];
    });
    return {
      findings: scans.flatMap((scan) => scan.findings),
      deductions: scans.flatMap((scan) => scan.deductions),
    };
  },
};

/** `code`: follow base64 into eval/exec; `python`: count Kazma's score patterns. */
function scanFile(file: BundleFile, rules: readonly CodeRule[], kind: { code: boolean; python: boolean }): FileScan {
  const { text, truncated } = scannedText(file);
  const hits = new Map<CodeRule, number[]>();
  const hit = (rule: CodeRule, line: number): void => {
    const lines = hits.get(rule);
    if (lines) lines.push(line);
    else hits.set(rule, [line]);
  };
  const base64 = new Base64Flow();
  text.split('\n').forEach((line, index) => {
    const parts = pieces(line);
    for (const rule of rules) if (parts.some((part) => matches(rule, part))) hit(rule, index + 1);
    if (kind.code && base64.runsDecoded(line, parts)) hit(BASE64_EXEC_RULE, index + 1);
  });

  const findings = [...hits].flatMap(([rule, lines]) => ruleFindings(file, rule, lines));
  if (truncated) findings.push(notFullyScanned(file));
  const deductions = kind.python ? kazmaDeductions(file, text) : [];
  const secretLines = [...hits].filter(([rule]) => rule.secret).flatMap(([, lines]) => lines);
  if (secretLines.length > 0) deductions.push(secretDeduction(file, Math.min(...secretLines)));
  return { findings, deductions };
}

/** The line itself, or overlapping pieces of a long one. */
function pieces(line: string): string[] {
  if (line.length <= PIECE_LENGTH) return [line];
  const parts: string[] = [];
  for (let start = 0; start < line.length; start += PIECE_LENGTH - PIECE_OVERLAP) {
    parts.push(line.slice(start, start + PIECE_LENGTH));
  }
  return parts;
}

function matches(rule: CodeRule, text: string): boolean {
  const global = GLOBAL_PATTERNS.get(rule);
  if (!rule.accept || !global) return rule.pattern.test(text);
  const accept = rule.accept;
  return [...text.matchAll(global)].some((match) => accept(match));
}

/**
 * Base64 decoded and then run as code: on one line (`exec(b64decode(...))`), or through a variable
 * assigned from a decode and passed to eval/exec/compile/Function on a later line.
 */
class Base64Flow {
  private readonly decodedVariables: RegExp[] = [];

  runsDecoded(line: string, parts: readonly string[]): boolean {
    const decodes = parts.some((part) => BASE64_DECODE.test(part));
    const sink = parts.some((part) => CODE_SINK.test(part));
    const runs = sink && (decodes || this.decodedVariables.some((name) => parts.some((part) => name.test(part))));
    const assigned = decodes ? ASSIGNMENT.exec(line) : null;
    if (assigned?.[1] && this.decodedVariables.length < MAX_TRACKED_VARIABLES) {
      this.decodedVariables.push(new RegExp(`(?<![\\w$])${assigned[1].replace(/\$/g, '\\$')}(?![\\w$])`));
    }
    return runs;
  }
}

function ruleFindings(file: BundleFile, rule: CodeRule, lines: readonly number[]): Finding[] {
  // Use of an undeclared permission needs saying once per file; a dangerous call, wherever it is.
  const listed = lines.slice(0, rule.unlessPermission ? 1 : MAX_LINES_LISTED);
  const more = lines.length - listed.length;
  return listed.map((line, index) =>
    newFinding({
      check: 'C11',
      code: rule.code,
      severity: rule.severity,
      file: file.path,
      line,
      message:
        index === listed.length - 1 && more > 0
          ? `${rule.message} (${more} more line${more === 1 ? '' : 's'} of this file too.)`
          : rule.message,
      fixHint: rule.fixHint,
    }),
  );
}

/** What is not scanned cannot be vouched for. */
function notFullyScanned(file: BundleFile): Finding {
  return newFinding({
    check: 'C11',
    code: 'not-fully-scanned',
    severity: 'high',
    file: file.path,
    message: `The file is ${file.content.length} bytes; only its first ${MAX_SCANNED_BYTES} were scanned.`,
    fixHint: `Split the file into files under ${MAX_SCANNED_BYTES} bytes, or depend on it as a published package instead of shipping it.`,
  });
}

function kazmaDeductions(file: BundleFile, text: string): ScoreDeduction[] {
  return KAZMA_PATTERNS.flatMap(({ text: pattern, pattern: regex, points, code }) => {
    const match = regex.exec(text);
    if (!match) return [];
    const finding = newFinding({
      check: 'C11',
      code,
      severity: 'info',
      file: file.path,
      line: lineAtIndex(text, match.index),
      message: `Kazma's score −${points}: the file contains \`${pattern}\` (Kazma counts it once per Python file, in comments and in method names such as model.eval( too).`,
      fixHint: `Remove \`${pattern}\` from the file if the score matters.`,
    });
    return [{ points, finding }];
  });
}

function secretDeduction(file: BundleFile, line: number): ScoreDeduction {
  const points = KAZMA_PENALTIES.secretFile;
  return {
    points,
    finding: newFinding({
      check: 'C11',
      code: 'score-secret',
      severity: 'info',
      file: file.path,
      line,
      message: `Kazma's score −${points}: the file holds a hard-coded secret.`,
      fixHint: 'Remove every secret from the file (see the C11 secret findings).',
    }),
  };
}
