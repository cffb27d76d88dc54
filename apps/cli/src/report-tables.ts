/** A certification report as tables: the requirements met, and the findings (the local check's or the hub's). */
import { table, tty, type Painter, type TerminalText } from './format';

export interface FindingRow {
  severity: string;
  rule: string;
  file: string | null;
  line: number | null;
  message: string;
  fixHint: string;
}

export function requirementsTable(requirements: Record<string, boolean>, paint: Painter): TerminalText {
  return table(
    ['REQUIREMENT', 'MET'],
    Object.entries(requirements).map(([k, met]) => [k, met ? paint.green('yes') : paint.red('no')]),
  );
}

/** Every finding but the informational ones, with where it is and how to fix it. */
export function findingsTable(findings: readonly FindingRow[]): TerminalText {
  return table(
    ['SEVERITY', 'RULE', 'WHERE', 'MESSAGE'],
    findings
      .filter((f) => f.severity !== 'info')
      .map((f) => [
        f.severity,
        f.rule,
        f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : '-',
        tty`${f.message} — ${f.fixHint}`,
      ]),
  );
}

/** The findings of a report the hub sent (JSON typed as unknown): what is not a finding is left out. */
export function reportFindings(report: Record<string, unknown> | null | undefined): FindingRow[] {
  const findings = report?.findings;
  if (!Array.isArray(findings)) return [];
  return findings.flatMap((f: unknown): FindingRow[] => {
    if (typeof f !== 'object' || f === null) return [];
    const { severity, rule, file, line, message, fixHint } = f as Record<string, unknown>;
    if (typeof severity !== 'string' || typeof rule !== 'string' || typeof message !== 'string') return [];
    return [
      {
        severity,
        rule,
        message,
        file: typeof file === 'string' ? file : null,
        line: typeof line === 'number' ? line : null,
        fixHint: typeof fixHint === 'string' ? fixHint : '',
      },
    ];
  });
}
