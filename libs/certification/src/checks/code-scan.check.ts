/**
 * C11 code: what the bundle's code can do, from a parse of every code file (libs/code-analysis),
 * compared with the permissions the manifest declares. Refused shapes (dynamic code, obfuscation,
 * native code, download-and-run, destructive commands, reverse shells, shell commands built from
 * input, exfiltration) and files nothing can be proven about fail; an ordinary capability the
 * manifest does not declare, a declared dangerous one, or a credentials path keep the skill from
 * standard. Comments are text (C12 reads them), never code. Also hard-coded secrets and Kazma's
 * code-side score deductions, which are facts about text. Nothing is executed or imported.
 */
import type { BundleFile } from '@skillhub/bundle';
import type { CapabilityKind, CapabilityUse, CodeIssue, IssueKind } from '@skillhub/code-analysis';
import type { NormalizedSkill, SkillFormat } from '@skillhub/skill-formats';
import type { Check, CheckInput } from '../check';
import { newFinding, type Finding, type Severity } from '../finding';
import { KAZMA_PENALTIES, type ScoreDeduction } from '../kazma-score';
import type { ReportedCapability } from '../report';
import { lineAtIndex, MAX_SCANNED_BYTES, scannedText } from '../scanned-text';
import { KAZMA_PATTERNS, SECRET_RULES, type SecretRule } from './text-patterns';

/** The permission that declares each capability (Kazma's names, and the two the hub adds). */
export const CAPABILITY_PERMISSIONS: Readonly<Record<CapabilityKind, string>> = {
  process_exec: 'process_exec',
  network: 'network_outbound',
  network_inbound: 'network_inbound',
  env_read: 'env_read',
  file_read: 'file_read',
  file_write: 'file_write',
};

/** Declared and used, these still cap a skill at basic: running programs can do anything the user can. */
const DANGEROUS: ReadonlySet<CapabilityKind> = new Set(['process_exec']);

const CAPABILITY_WORDS: Readonly<Record<CapabilityKind, string>> = {
  process_exec: 'runs programs',
  network: 'opens network connections',
  network_inbound: 'listens for network connections',
  env_read: 'reads environment variables',
  file_read: "reads files outside the skill's folder",
  file_write: 'writes or deletes files',
};

const ISSUES: Readonly<Record<IssueKind, { severity: Severity; fixHint: string }>> = {
  'dynamic-code': {
    severity: 'high',
    fixHint: 'Call the code you need directly; a skill must not run code it builds, loads or receives at run time.',
  },
  obfuscation: {
    severity: 'critical',
    fixHint: 'Ship readable UTF-8 source with ASCII identifiers; code that hides what it does is never certified.',
  },
  'native-code': {
    severity: 'high',
    fixHint: 'Use a published package instead of loading native code; the hub cannot analyse machine code.',
  },
  'download-and-run': {
    severity: 'critical',
    fixHint: 'Never run what is downloaded: depend on a pinned package, or ship the code in the bundle.',
  },
  'destructive-command': {
    severity: 'critical',
    fixHint: 'Remove the command; delete only paths the skill created, named explicitly.',
  },
  'reverse-shell': { severity: 'critical', fixHint: 'Remove it: a skill never hands a shell to a network peer.' },
  'shell-from-input': {
    severity: 'high',
    fixHint:
      'Run the program with an argument list and no shell (subprocess.run([...]), execFile), so no input is read as shell code.',
  },
  exfiltration: {
    severity: 'critical',
    fixHint: 'Never send credentials or the environment anywhere; read only the one variable a call needs.',
  },
  'credentials-access': {
    severity: 'medium',
    fixHint: "Take credentials from explicit configuration the user gives the skill, not from the user's secret files.",
  },
  'endless-loop': {
    severity: 'medium',
    fixHint:
      'Give the loop a way out (a break, a return, a limit on its rounds) or, for a server that waits for work, say so in the skill; a reviewer can clear this finding.',
  },
  'busy-loop': {
    severity: 'high',
    fixHint:
      'Give the loop a way out (a break, a return, a limit on its rounds); a loop that waits for nothing and never ends only burns the CPU it runs on.',
  },
  injection: {
    severity: 'high',
    fixHint:
      'Pass values to SQL as parameters (cursor.execute("… WHERE id = ?", (value,))), never in the query text; resolve a path (os.path.realpath) and check it stays under its folder (os.path.commonpath) before opening it.',
  },
  persistence: {
    severity: 'critical',
    fixHint:
      "Write only inside the skill's working folder or a path the user names; a skill never plants code that runs later or rewrites what was certified.",
  },
  unparsable: {
    severity: 'high',
    fixHint:
      'Ship source that parses (Python 3, POSIX/bash shell, JavaScript or TypeScript); nothing can be proven about a file that does not.',
  },
};

/** Lines listed per issue kind and file; the last one listed says how many more there are. */
const MAX_ISSUES_LISTED = 10;

export const codeScanCheck: Check = {
  id: 'C11',
  decides: ['code_analysed', 'capabilities_declared', 'no_dangerous_capabilities'],
  appliesToManifestOnly: false,
  run(input) {
    const findings: Finding[] = [];
    const deductions: ScoreDeduction[] = [];
    let analysed = true;
    for (const file of input.bundle.files) {
      const kind = input.code.kinds.get(file.path);
      if (kind?.kind === 'unanalysable') {
        analysed = false;
        findings.push(unanalysable(file, kind.reason));
        continue;
      }
      if (kind?.kind === 'inert') continue;
      const { text, truncated } = scannedText(file);
      if (truncated && kind?.kind === 'code') {
        analysed = false;
        findings.push(notFullyScanned(file));
      }
      const secrets = secretFindings(file, text);
      findings.push(...secrets);
      if (secrets.length > 0) deductions.push(secretDeduction(file, secrets[0]?.line ?? null));
      if (kind?.kind === 'code' && kind.language === 'python') deductions.push(...kazmaDeductions(file, text));
    }
    // A command skill's programs run as the code does: the same rules judge them.
    const analyses = [...input.code.analyses, ...input.code.commands];
    const issues = analyses.flatMap((analysis) => analysis.issues);
    if (issues.some((issue) => issue.kind === 'unparsable')) analysed = false;
    findings.push(...issueFindings(issues));
    const capabilities = reportedCapabilities(
      analyses.flatMap((analysis) => analysis.capabilities),
      input.skill,
    );
    findings.push(...capabilityFindings(capabilities, input));
    return {
      findings,
      deductions,
      requirements: {
        code_analysed: analysed,
        capabilities_declared: capabilities.every((capability) => capability.declared),
        no_dangerous_capabilities: !capabilities.some((capability) => DANGEROUS.has(capability.capability)),
      },
      evidence: { capabilities },
    };
  },
};

function issueFindings(issues: readonly CodeIssue[]): Finding[] {
  const byFileAndKind = new Map<string, CodeIssue[]>();
  for (const issue of issues) {
    const key = `${issue.file}\u0000${issue.kind}`;
    const list = byFileAndKind.get(key);
    if (list) list.push(issue);
    else byFileAndKind.set(key, [issue]);
  }
  return [...byFileAndKind.values()].flatMap((list) => {
    const listed = list.slice(0, MAX_ISSUES_LISTED);
    const more = list.length - listed.length;
    return listed.map((issue, index) => {
      const { severity, fixHint } = ISSUES[issue.kind];
      const evidence = issue.evidence === '' ? '' : ` (\`${issue.evidence}\`)`;
      const tail = index === listed.length - 1 && more > 0 ? ` ${more} more in this file.` : '';
      return newFinding({
        check: 'C11',
        code: issue.kind,
        severity,
        file: issue.file,
        line: issue.line,
        message: `${issue.message.replace(/\.$/, '')}${evidence}.${tail}`,
        fixHint,
      });
    });
  });
}

/** One entry per capability, every file's uses together, in the order of CAPABILITY_PERMISSIONS. */
function reportedCapabilities(uses: readonly CapabilityUse[], skill: NormalizedSkill | null): ReportedCapability[] {
  const declared = new Set(skill?.permissions ?? []);
  return (Object.keys(CAPABILITY_PERMISSIONS) as CapabilityKind[]).flatMap((capability): ReportedCapability[] => {
    const all = uses.filter((use) => use.capability === capability);
    if (all.length === 0) return [];
    const permission = CAPABILITY_PERMISSIONS[capability];
    const listed = all.slice(0, MAX_ISSUES_LISTED).map(({ file, line, evidence }) => ({ file, line, evidence }));
    return [
      { capability, permission, declared: declared.has(permission), uses: listed, more: all.length - listed.length },
    ];
  });
}

function capabilityFindings(capabilities: readonly ReportedCapability[], input: CheckInput): Finding[] {
  const format = input.skill?.format ?? 'kazma';
  return capabilities.flatMap((capability): Finding[] => {
    const first = capability.uses[0];
    const at = { file: first?.file ?? null, line: first?.line ?? null };
    const words = CAPABILITY_WORDS[capability.capability];
    const proof = first ? ` (\`${first.evidence}\`)` : '';
    if (!capability.declared) {
      return [
        newFinding({
          check: 'C11',
          code: 'undeclared-capability',
          severity: 'medium',
          ...at,
          message: `The code ${words}${proof}, but the manifest does not declare the ${capability.permission} permission.`,
          fixHint: declareHint(format, capability.permission),
        }),
      ];
    }
    if (!DANGEROUS.has(capability.capability)) return [];
    return [
      newFinding({
        check: 'C11',
        code: 'dangerous-capability',
        severity: 'medium',
        ...at,
        message: `The code ${words}${proof}, as the manifest declares (${capability.permission}); a skill that runs programs is certified basic at most.`,
        fixHint:
          'Nothing to fix if the skill needs it; to reach standard, call a library or an MCP server instead of running programs.',
      }),
    ];
  });
}

/** Where each format declares a permission (docs/formats.md). */
function declareHint(format: SkillFormat, permission: string): string {
  switch (format) {
    case 'kazma':
      return `Add ${permission} to \`permissions\` in skill_manifest.yaml, or remove the code that needs it.`;
    case 'agent-skill':
      return `Add ${permission} to \`metadata.permissions\` in SKILL.md's front matter (names separated by spaces), or remove the code that needs it.`;
    case 'swarmkit':
      return `Add the scope \`permission:${permission}\` to \`iam.required_scopes\`, or remove the code that needs it.`;
  }
}

function unanalysable(file: BundleFile, reason: string): Finding {
  return newFinding({
    check: 'C11',
    code: 'unanalysable-file',
    severity: 'high',
    file: file.path,
    message: `The file is ${reason}, which the hub cannot analyse, so nothing about what it does can be proven.`,
    fixHint:
      'Ship source instead (Python, shell, JavaScript or TypeScript), or depend on a published package; images (PNG, JPEG, GIF, WebP, ICO) and fonts (TTF, OTF, WOFF, WOFF2) may stay.',
  });
}

/** What is not scanned cannot be vouched for. */
function notFullyScanned(file: BundleFile): Finding {
  return newFinding({
    check: 'C11',
    code: 'not-fully-scanned',
    severity: 'high',
    file: file.path,
    message: `The file is ${file.content.length} bytes; only files up to ${MAX_SCANNED_BYTES} bytes are analysed.`,
    fixHint: `Split the file into files under ${MAX_SCANNED_BYTES} bytes, or depend on it as a published package instead of shipping it.`,
  });
}

function secretFindings(file: BundleFile, text: string): Finding[] {
  return SECRET_RULES.flatMap((rule) => {
    const line = firstMatchingLine(rule, text);
    if (line === null) return [];
    return [
      newFinding({
        check: 'C11',
        code: rule.code,
        severity: rule.severity,
        file: file.path,
        line,
        message: rule.message,
        fixHint: rule.fixHint,
      }),
    ];
  });
}

/** Lines longer than this are matched in overlapping pieces (a minified file is one long line). */
const PIECE_LENGTH = 4096;
const PIECE_OVERLAP = 256;

function firstMatchingLine(rule: SecretRule, text: string): number | null {
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    for (let start = 0; start < Math.max(line.length, 1); start += PIECE_LENGTH - PIECE_OVERLAP) {
      const piece = line.slice(start, start + PIECE_LENGTH);
      const match = rule.pattern.exec(piece);
      if (match && (!rule.accept || rule.accept(match))) return index + 1;
    }
  }
  return null;
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

function secretDeduction(file: BundleFile, line: number | null): ScoreDeduction {
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
