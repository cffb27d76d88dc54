import { newFinding } from './finding';
import { kazmaScore, scoreThresholdFindings, type ScoreDeduction } from './kazma-score';

const deduction = (points: number): ScoreDeduction => ({
  points,
  finding: newFinding({ check: 'C11', code: 'score-eval', severity: 'info', message: 'm', fixHint: 'h' }),
});

describe("Kazma's score", () => {
  it('starts at 100 and never goes below 0', () => {
    expect([
      kazmaScore([]),
      kazmaScore([deduction(20), deduction(25)]),
      kazmaScore(Array(9).fill(deduction(20))),
    ]).toEqual([100, 55, 0]);
  });

  it('explains a score short of a threshold as a C11 finding: high below 80, medium below 90', () => {
    expect([79, 80, 89, 90].map((score) => scoreThresholdFindings(score).map((f) => [f.rule, f.severity]))).toEqual([
      [['C11.kazma-score-below-basic', 'high']],
      [['C11.kazma-score-below-standard', 'medium']],
      [['C11.kazma-score-below-standard', 'medium']],
      [],
    ]);
  });
});
