/**
 * The certification corpora through the real pipeline (parse, fake npm/PyPI with real tarballs,
 * package cache, bubblewrap sandbox, every check): no hostile case certifies, each failing for
 * the rule it was written for; every benign case certifies at the level it was written for.
 */
import type { CertificationVerdict } from '@skillhub/certification';
import { BENIGN_CASES, HOSTILE_CASES, type CorpusCase } from './fixtures/certification-corpus';
import { startCorpusJudge, type CorpusJudge } from './fixtures/certification-corpus/corpus-judge';

jest.setTimeout(600_000);

const summary = (verdict: CertificationVerdict): string =>
  verdict.findings
    .filter((finding) => finding.severity !== 'info')
    .map((finding) => `${finding.rule}@${finding.file ?? ''}:${finding.line ?? ''} ${finding.message.slice(0, 100)}`)
    .join('\n');

describe('the certification corpora', () => {
  let corpus: CorpusJudge;
  const verdicts = new Map<string, CertificationVerdict>();

  beforeAll(async () => {
    corpus = await startCorpusJudge();
    // Judged once, in order, before the assertions: each case is then its own test.
    for (const testCase of [...HOSTILE_CASES, ...BENIGN_CASES]) verdicts.set(testCase.id, await corpus.judge(testCase));
  });
  afterAll(() => corpus?.close());

  it('holds at least 150 hostile and 60 benign cases, ids unique', () => {
    const ids = [...HOSTILE_CASES, ...BENIGN_CASES].map((testCase) => testCase.id);
    expect(HOSTILE_CASES.length).toBeGreaterThanOrEqual(150);
    expect(BENIGN_CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(HOSTILE_CASES.map((testCase): [string, CorpusCase] => [testCase.id, testCase]))(
    'hostile %s is not certified, and says why',
    (_id, testCase) => {
      const verdict = verdicts.get(testCase.id) as CertificationVerdict;
      const rules = verdict.findings.map((finding) => finding.rule);
      expect({
        status: verdict.status,
        hasRule: rules.some((rule) => rule.startsWith(testCase.expectRule ?? '?')),
      }).toEqual({ status: expect.not.stringMatching(/^certified$/), hasRule: true });
    },
  );

  it.each(BENIGN_CASES.map((testCase): [string, CorpusCase] => [testCase.id, testCase]))(
    'benign %s is certified at its level',
    (_id, testCase) => {
      const verdict = verdicts.get(testCase.id) as CertificationVerdict;
      const as = verdict.status === 'certified' && verdict.level === testCase.expectLevel;
      // The findings show only when the verdict is not the expected one, to say why.
      expect({ status: verdict.status, level: verdict.level, findings: as ? '' : summary(verdict) }).toEqual({
        status: 'certified',
        level: testCase.expectLevel,
        findings: '',
      });
    },
  );

  it('certifies at least 80% of the benign skills with pinned npm servers at standard', () => {
    const pinned = BENIGN_CASES.filter((testCase) => (verdicts.get(testCase.id)?.servers ?? []).some((s) => s.package));
    const standard = pinned.filter((testCase) => verdicts.get(testCase.id)?.level === 'standard');
    expect(pinned.length).toBeGreaterThanOrEqual(25);
    expect(standard.length / pinned.length).toBeGreaterThanOrEqual(0.8);
  });
});
