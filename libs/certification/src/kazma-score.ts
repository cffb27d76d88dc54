/**
 * Kazma's readiness score (`kazma hub check-certification`, docs/kazma.md): 100 down to a floor
 * of 0. Each deduction is also an info finding, so the score can be re-added from the report.
 */
import { newFinding, type Finding } from './finding';

/** Points Kazma takes off, per cause. */
export const KAZMA_PENALTIES = {
  invalidManifest: 30,
  unknownPermission: 5,
  eval: 20,
  exec: 20,
  dunderImport: 15,
  osSystem: 25,
  /** Per file with at least one hard-coded secret. */
  secretFile: 10,
} as const;

/** Kazma's thresholds: security_lint_pass / basic, no_critical_vulnerabilities, standard. */
export const SCORE_FOR_BASIC = 80;
export const SCORE_FOR_NO_CRITICAL = 50;
export const SCORE_FOR_STANDARD = 90;

export interface ScoreDeduction {
  points: number;
  /** The info finding that explains it; its message names the points. */
  finding: Finding;
}

export const kazmaScore = (deductions: readonly ScoreDeduction[]): number =>
  Math.max(
    0,
    deductions.reduce((score, deduction) => score - deduction.points, 100),
  );

/**
 * A score below a level's threshold is itself a C11 (security lint) finding, so a level withheld
 * for the score alone is still explained: high below 80 (fails), medium below 90 (blocks standard).
 */
export function scoreThresholdFindings(score: number): Finding[] {
  const fixHint = 'Remove the causes listed by the "score-" findings; each names its file and the points it costs.';
  if (score < SCORE_FOR_BASIC) {
    return [
      newFinding({
        check: 'C11',
        code: 'kazma-score-below-basic',
        severity: 'high',
        message: `Kazma's readiness score is ${score}; its security lint and the hub's basic level need ${SCORE_FOR_BASIC}.`,
        fixHint,
      }),
    ];
  }
  if (score < SCORE_FOR_STANDARD) {
    return [
      newFinding({
        check: 'C11',
        code: 'kazma-score-below-standard',
        severity: 'medium',
        message: `Kazma's readiness score is ${score}; the standard level needs ${SCORE_FOR_STANDARD}.`,
        fixHint,
      }),
    ];
  }
  return [];
}
