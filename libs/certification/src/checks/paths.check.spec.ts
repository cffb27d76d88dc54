import { certify } from '../certify';
import {
  certificationInput,
  certifyFiles,
  findingsOf,
  handmadeBundle,
  KAZMA_CODE,
  kazmaFiles,
  kazmaProbes,
  placeOf,
} from '../testing/certification-fixtures';
import { pathViolations } from './paths.check';

describe('C2 paths', () => {
  it('accepts a Kazma skill that declares no entry point, as Kazma does, but as unsigned: basic at most', () => {
    const report = certifyFiles(kazmaFiles({ manifest: { entry_point: undefined } }), { probes: kazmaProbes() });

    expect(report.requirementsMet).toMatchObject({
      entry_point_exists: true,
      checksum_valid: false,
      signature_valid: false,
    });
    expect(findingsOf(report, 'C3.unsigned').map(placeOf)).toEqual([
      { rule: 'C3.unsigned', severity: 'medium', file: 'skill_manifest.yaml', line: null },
    ]);
    expect([report.status, report.level, report.checks.C2, report.checks.C4]).toEqual([
      'certified',
      'basic',
      'pass',
      'skipped',
    ]);
  });

  it('fails a checksum that a manifest without entry point cannot have been made over', () => {
    const report = certifyFiles(kazmaFiles({ manifest: { entry_point: undefined, checksum: 'a'.repeat(64) } }), {
      probes: kazmaProbes(),
    });

    expect(findingsOf(report, 'C3.no-entry-point').map(placeOf)).toEqual([
      { rule: 'C3.no-entry-point', severity: 'high', file: 'skill_manifest.yaml', line: null },
    ]);
    expect(report.status).toBe('failed');
  });

  it('fails an entry point that the bundle does not hold', () => {
    const input = certificationInput(kazmaFiles(), { probes: kazmaProbes() });
    const bundle = handmadeBundle({ 'skill_manifest.yaml': input.bundle.files[0]?.content ?? '' });

    const report = certify({ ...input, bundle });

    expect(findingsOf(report, 'C2.entry-point-missing').map(placeOf)).toEqual([
      { rule: 'C2.entry-point-missing', severity: 'high', file: 'skill_manifest.yaml', line: null },
    ]);
  });

  it('re-checks every path of the bundle, whatever the bundle reader let through', () => {
    const input = certificationInput(kazmaFiles(), { probes: kazmaProbes() });
    const bundle = handmadeBundle({
      ...Object.fromEntries(input.bundle.files.map((file) => [file.path, file.content])),
      '../evil.py': 'print(1)',
      'C:/windows.py': 'print(1)',
      'docs\\a.md': 'a',
      'nul\u0000.md': 'a',
    });

    const report = certify({ ...input, bundle });

    expect(findingsOf(report, 'C2.unsafe-path').map((finding) => [finding.file, finding.severity])).toEqual([
      ['../evil.py', 'high'],
      ['C:/windows.py', 'high'],
      ['docs\\a.md', 'high'],
      ['nul\\u0000.md', 'high'],
    ]);
    expect([report.requirementsMet.paths_safe, report.status]).toEqual([false, 'failed']);
  });

  it('fails names that collide once case and Unicode form are folded', () => {
    const input = certificationInput(kazmaFiles(), { probes: kazmaProbes() });
    const bundle = handmadeBundle({
      'skill_manifest.yaml': input.bundle.files[0]?.content ?? '',
      'weather_skill.py': KAZMA_CODE,
      'Docs/guide.md': 'a',
      'docs/Guide.md': 'b',
      'docs/other.md': 'c',
    });

    const report = certify({ ...input, bundle });

    expect(findingsOf(report, 'C2.path-collision').map((finding) => finding.file)).toEqual(['docs', 'docs/Guide.md']);
  });

  it.each([
    ['a/b.py', []],
    ['', ['it is empty']],
    ['/etc/passwd', ['it is absolute', "it contains an empty or '.' segment"]],
    ['a/./b', ["it contains an empty or '.' segment"]],
    ['cafe\u0301.md', ['it is not in Unicode NFC form']],
  ])('names every rule %j breaks', (path, violations) => {
    expect(pathViolations(path)).toEqual(violations);
  });
});
