/**
 * The text patterns C11 still matches on source text, where a match is the fact itself: hard-coded
 * secrets (a literal is a literal wherever it sits) and what Kazma's own readiness score counts.
 * What code can DO is decided from its syntax tree (libs/code-analysis), never from patterns.
 * Quantifiers are bounded so that no line can make a pattern backtrack for long.
 */
import type { Severity } from '../finding';
import { KAZMA_PENALTIES } from '../kazma-score';

export interface SecretRule {
  /** Rule id after `C11.`. */
  code: string;
  severity: Severity;
  /** Tested on each line; no `g` flag. */
  pattern: RegExp;
  message: string;
  fixHint: string;
  /** A match counts only when this agrees (a placeholder is not a secret). */
  accept?: (match: RegExpExecArray) => boolean;
}

const NO_SECRET =
  'Remove the secret from the bundle, revoke it (it is now public), and read it from the environment or the agent’s secret store.';

/** Values a sample config writes where the real secret goes. */
const PLACEHOLDER = /\$\{|\{\{|<|>|your|example|sample|xxxx|placeholder|changeme|dummy|redacted|\*\*\*/i;

export const SECRET_RULES: readonly SecretRule[] = [
  {
    code: 'secret-aws-key',
    severity: 'high',
    pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
    message: 'Holds what looks like an AWS access key id.',
    fixHint: NO_SECRET,
  },
  {
    code: 'secret-github-token',
    severity: 'high',
    pattern: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b|\bgithub_pat_\w{22,255}/,
    message: 'Holds what looks like a GitHub token.',
    fixHint: NO_SECRET,
  },
  {
    code: 'secret-slack-token',
    severity: 'high',
    pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,255}/,
    message: 'Holds what looks like a Slack token.',
    fixHint: NO_SECRET,
  },
  {
    code: 'secret-private-key',
    severity: 'high',
    pattern: /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY-----/,
    message: 'Holds a private key (a PEM "PRIVATE KEY" block).',
    fixHint: NO_SECRET,
  },
  {
    code: 'secret-literal',
    severity: 'high',
    pattern:
      /\b[\w-]{0,40}?(?:password|passwd|secret|secret_?key|token|api_?key|access_?key|private_?key)['"]?\s{0,10}[:=]\s{0,10}(['"])([^'"\s]{16,256})\1/i,
    message: 'Assigns a long literal to a password, secret, token or API key.',
    fixHint: NO_SECRET,
    // An all-caps name (`YOUR_API_KEY_HERE`) or a template is where a secret goes, not a secret.
    accept: (match) => !/^[A-Z0-9_.-]+$/.test(match[2] ?? '') && !PLACEHOLDER.test(match[2] ?? ''),
  },
];

/**
 * What Kazma's readiness score counts, once per Python file (Kazma skills are Python), wherever
 * the text is: in comments and in method names such as `model.eval(` too, as its validator's
 * lookaround patterns do.
 */
export const KAZMA_PATTERNS: readonly { text: string; pattern: RegExp; points: number; code: string }[] = [
  { text: 'eval(', pattern: /(?<!\w)eval\s*\(/, points: KAZMA_PENALTIES.eval, code: 'score-eval' },
  { text: 'exec(', pattern: /(?<!\w)exec\s*\(/, points: KAZMA_PENALTIES.exec, code: 'score-exec' },
  {
    text: '__import__',
    pattern: /(?<!\w)__import__(?!\w)/,
    points: KAZMA_PENALTIES.dunderImport,
    code: 'score-dunder-import',
  },
  { text: 'os.system(', pattern: /(?<!\w)os\.system\s*\(/, points: KAZMA_PENALTIES.osSystem, code: 'score-os-system' },
];
