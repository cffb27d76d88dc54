/**
 * The held-out corpus (test/fixtures/held-out-corpus) through the real pipeline, as the corpus e2e
 * test runs the certification corpora: written without looking at how the certifier detects
 * anything, it measures what the certifier misses. No hostile case may certify at standard, at most
 * 2% may certify at all, and every benign look-alike must certify (its expected level is reported,
 * not required).
 */
import { writeFileSync } from 'node:fs';
import type { CertificationVerdict } from '@skillhub/certification';
import type { CorpusCase } from './fixtures/certification-corpus';
import { startCorpusJudge, type CorpusJudge } from './fixtures/certification-corpus/corpus-judge';
import { classOf, HELD_OUT_BENIGN, HELD_OUT_CLASSES, HELD_OUT_HOSTILE } from './fixtures/held-out-corpus';

jest.setTimeout(1_800_000);

/** Share of hostile cases that may certify at all (basic): what the corpus tolerates as misses. */
const MAX_CERTIFIED_SHARE = 0.02;

const summary = (verdict: CertificationVerdict): string =>
  verdict.findings
    .filter((finding) => finding.severity !== 'info')
    .map((finding) => `${finding.rule}@${finding.file ?? ''}:${finding.line ?? ''} ${finding.message.slice(0, 120)}`)
    .join('\n');

const certified = (verdict: CertificationVerdict | undefined): boolean => verdict?.status === 'certified';
const atStandard = (verdict: CertificationVerdict | undefined): boolean =>
  certified(verdict) && verdict?.level === 'standard';

/** Cases judged at once. */
const JUDGED_AT_ONCE = 3;

describe('the held-out certification corpus', () => {
  let corpus: CorpusJudge;
  const verdicts = new Map<string, CertificationVerdict>();
  const verdictOf = (testCase: CorpusCase): CertificationVerdict => verdicts.get(testCase.id) as CertificationVerdict;

  beforeAll(async () => {
    corpus = await startCorpusJudge({ detonate: true });
    // Judged once before the assertions, a few at a time (detonation waits on the sandbox more than
    // it computes): each case is then its own test.
    const queue = [...HELD_OUT_HOSTILE, ...HELD_OUT_BENIGN];
    const judgeNext = async (): Promise<void> => {
      for (let testCase = queue.shift(); testCase; testCase = queue.shift())
        verdicts.set(testCase.id, await corpus.judge(testCase));
    };
    await Promise.all(Array.from({ length: JUDGED_AT_ONCE }, judgeNext));
    report();
    // HELD_OUT_DUMP=<file>: every verdict's status, level and findings, to read what was (not) seen.
    if (process.env.HELD_OUT_DUMP) writeFileSync(process.env.HELD_OUT_DUMP, dump());
  });
  afterAll(() => corpus?.close());

  function dump(): string {
    const entries = [...HELD_OUT_HOSTILE, ...HELD_OUT_BENIGN].map((testCase) => {
      const verdict = verdictOf(testCase);
      return {
        id: testCase.id,
        status: verdict.status,
        level: verdict.level,
        findings: verdict.findings
          .filter((finding) => finding.severity !== 'info')
          .map(
            (finding) =>
              `${finding.severity} ${finding.rule}@${finding.file ?? ''}:${finding.line ?? ''} ${finding.message}`,
          ),
      };
    });
    return `${JSON.stringify(entries, null, 1)}\n`;
  }

  /** Per class: hostile count, certified, certified at standard (with the ids); then the benign results. */
  function report(): void {
    const rows: string[] = ['class   hostile  certified  at-standard'];
    const classes = [...new Set([...Object.keys(HELD_OUT_CLASSES), ...HELD_OUT_HOSTILE.map(classOf)])];
    for (const name of classes) {
      const cases = HELD_OUT_HOSTILE.filter((testCase) => classOf(testCase) === name);
      const passed = cases.filter((testCase) => certified(verdicts.get(testCase.id)));
      const standard = passed.filter((testCase) => atStandard(verdicts.get(testCase.id)));
      rows.push(
        `${name.padEnd(8)}${String(cases.length).padStart(7)}${String(passed.length).padStart(11)}${String(standard.length).padStart(13)}` +
          (passed.length > 0
            ? `   ${passed.map((testCase) => `${testCase.id}(${verdicts.get(testCase.id)?.level})`).join(' ')}`
            : ''),
      );
    }
    const hostileCertified = HELD_OUT_HOSTILE.filter((testCase) => certified(verdicts.get(testCase.id)));
    const hostileStandard = hostileCertified.filter((testCase) => atStandard(verdicts.get(testCase.id)));
    rows.push(
      `total   ${String(HELD_OUT_HOSTILE.length).padStart(7)}${String(hostileCertified.length).padStart(11)}${String(hostileStandard.length).padStart(13)}`,
    );
    const benignCertified = HELD_OUT_BENIGN.filter((testCase) => certified(verdicts.get(testCase.id)));
    const levelMismatch = benignCertified.filter(
      (testCase) => verdicts.get(testCase.id)?.level !== testCase.expectLevel,
    );
    rows.push(`benign  ${HELD_OUT_BENIGN.length} cases, ${benignCertified.length} certified`);
    for (const testCase of HELD_OUT_BENIGN.filter((c) => !certified(verdicts.get(c.id)))) {
      const verdict = verdicts.get(testCase.id);
      rows.push(
        `  NOT certified ${testCase.id} (${verdict?.status}):\n    ${summary(verdict!).replace(/\n/g, '\n    ')}`,
      );
    }
    for (const testCase of levelMismatch) {
      rows.push(`  level ${verdicts.get(testCase.id)?.level}, expected ${testCase.expectLevel}: ${testCase.id}`);
    }
    console.log(`held-out corpus\n${rows.join('\n')}`);
  }

  it('holds at least 155 hostile and 45 benign cases, ids unique and prefixed ho-', () => {
    const ids = [...HELD_OUT_HOSTILE, ...HELD_OUT_BENIGN].map((testCase) => testCase.id);
    expect(HELD_OUT_HOSTILE.length).toBeGreaterThanOrEqual(155);
    expect(HELD_OUT_BENIGN.length).toBeGreaterThanOrEqual(45);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !id.startsWith('ho-'))).toEqual([]);
    expect(HELD_OUT_HOSTILE.filter((testCase) => !(classOf(testCase) in HELD_OUT_CLASSES)).map((c) => c.id)).toEqual(
      [],
    );
  });

  it('certifies no hostile case at standard', () => {
    expect(HELD_OUT_HOSTILE.filter((testCase) => atStandard(verdicts.get(testCase.id))).map((c) => c.id)).toEqual([]);
  });

  it(`certifies at most ${MAX_CERTIFIED_SHARE * 100}% of the hostile cases at all`, () => {
    const passed = HELD_OUT_HOSTILE.filter((testCase) => certified(verdicts.get(testCase.id))).map((c) => c.id);
    expect({ share: passed.length / HELD_OUT_HOSTILE.length <= MAX_CERTIFIED_SHARE, passed }).toEqual({
      share: true,
      passed: expect.any(Array),
    });
  });

  it.each(HELD_OUT_HOSTILE.map((testCase): [string, CorpusCase] => [testCase.id, testCase]))(
    'hostile %s is not certified at standard',
    (_id, testCase) => {
      const verdict = verdictOf(testCase);
      // The findings show only when the verdict is standard, to say what was (not) seen.
      expect({
        status: verdict.status,
        level: verdict.level,
        findings: atStandard(verdict) ? summary(verdict) : '',
      }).not.toEqual(expect.objectContaining({ status: 'certified', level: 'standard' }));
    },
  );

  it.each(HELD_OUT_BENIGN.map((testCase): [string, CorpusCase] => [testCase.id, testCase]))(
    'benign %s is certified',
    (_id, testCase) => {
      const verdict = verdictOf(testCase);
      expect({ status: verdict.status, findings: certified(verdict) ? '' : summary(verdict) }).toEqual({
        status: 'certified',
        findings: '',
      });
    },
  );
});
