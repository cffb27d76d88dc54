import { certifyFiles, findingsOf, kazmaFiles, kazmaProbes, placeOf } from '../testing/certification-fixtures';
import { confusableKey, damerauLevenshtein, likeness } from './name-similarity';

const popular = (ref: string, owner = 'kazma-team') => ({ ref, owner });

describe('C10 squatting', () => {
  it('asks for review of a name two edits from a popular skill of another owner: basic, not standard', () => {
    const report = certifyFiles(kazmaFiles({ manifest: { name: 'weather-reprot' } }), {
      probes: kazmaProbes(),
      popularNames: [popular('kazma-team/weather-report'), popular('kazma-team/calendar')],
    });

    expect(findingsOf(report, 'C10.similar-name').map(placeOf)).toEqual([
      { rule: 'C10.similar-name', severity: 'medium', file: 'skill_manifest.yaml', line: null },
    ]);
    expect(findingsOf(report, 'C10.similar-name')[0]?.message).toContain(
      "1 edit away from 'kazma-team/weather-report'",
    );
    expect([report.status, report.level, report.requirementsMet.no_review_findings]).toEqual([
      'certified',
      'basic',
      false,
    ]);
  });

  it('catches confusable spellings and popular package names', () => {
    const report = certifyFiles(kazmaFiles({ manifest: { name: 'slack-mcp' } }), {
      probes: kazmaProbes(),
      popularNames: [
        popular('@modelcontextprotocol/slack-mcp', 'modelcontextprotocol'),
        popular('acme-corp/s1ack-rncp'),
      ],
    });

    expect(findingsOf(report, 'C10.similar-name').map((f) => f.message)).toEqual([
      "The name 'slack-mcp' is spelled confusably like 'acme-corp/s1ack-rncp', a popular skill or package of another owner, and could be mistaken for it.",
      "The name 'slack-mcp' is the same as the name of '@modelcontextprotocol/slack-mcp', a popular skill or package of another owner, and could be mistaken for it.",
    ]);
  });

  it("ignores the publisher's own skills", () => {
    const report = certifyFiles(kazmaFiles(), {
      probes: kazmaProbes(),
      popularNames: [popular('acme/weather-report', 'someone'), popular('other/weather-report', 'acme')],
    });

    expect(findingsOf(report, 'C10.similar-name')).toEqual([]);
  });
});

describe('name likeness', () => {
  it.each([
    ['weather', 'weather', { kind: 'same' }],
    ['Weather', 'weather', { kind: 'same' }],
    ['rnodel-tool', 'model_tool', { kind: 'confusable' }],
    ['g00gle-search', 'google-search', { kind: 'confusable' }],
    ['web-search', 'web-serach', { kind: 'near', distance: 1 }],
    ['web-search', 'web-seatch2', { kind: 'near', distance: 2 }],
    ['web-search', 'web-scratch', null],
    ['git', 'gh', null],
    ['pdf', 'pdf', { kind: 'same' }],
  ])('%s / %s', (a, b, expected) => {
    expect(likeness(a, b)).toEqual(expected);
  });

  it('counts a swap of neighbours as one edit', () => {
    expect([
      damerauLevenshtein('abcd', 'acbd'),
      damerauLevenshtein('', 'abc'),
      damerauLevenshtein('kitten', 'sitting'),
    ]).toEqual([1, 3, 3]);
  });

  it('folds 0/o, 1/l/i, rn/m and separators', () => {
    expect(confusableKey('Rn0-D_1.i')).toBe('modll');
  });
});
