import {
  certifyFiles,
  findingsOf,
  kazmaFiles,
  kazmaManifest,
  kazmaProbes,
  lineIn,
  placeOf,
} from '../testing/certification-fixtures';

describe('C7 namespace', () => {
  it('fails when the publisher does not own the namespace', () => {
    const report = certifyFiles(kazmaFiles(), { probes: kazmaProbes(), ownerMatches: false });

    expect(findingsOf(report, 'C7.not-namespace-owner').map(placeOf)).toEqual([
      { rule: 'C7.not-namespace-owner', severity: 'high', file: null, line: null },
    ]);
    expect([report.status, report.requirementsMet.namespace_owned]).toEqual(['failed', false]);
  });

  it("fails when the manifest's author is another namespace than the one published under", () => {
    const report = certifyFiles(kazmaFiles(), { probes: kazmaProbes(), namespace: 'globex' });

    expect(findingsOf(report, 'C7.author-mismatch').map(placeOf)).toEqual([
      {
        rule: 'C7.author-mismatch',
        severity: 'high',
        file: 'skill_manifest.yaml',
        line: lineIn(kazmaManifest(), 'author:'),
      },
    ]);
    expect(report.status).toBe('failed');
  });
});
