import { sha256Hex } from '@skillhub/bundle';
import { certify } from '../certify';
import { certificationInput, findingsOf, kazmaFiles, kazmaProbes, placeOf } from '../testing/certification-fixtures';

describe('C5 files', () => {
  it('records every file with the SHA-256 of its bytes', () => {
    const input = certificationInput(kazmaFiles({ extra: { 'docs/notes.md': 'notes' } }), { probes: kazmaProbes() });

    const report = certify(input);

    expect(report.files).toEqual(
      input.bundle.files.map((file) => ({
        path: file.path,
        size: file.content.length,
        sha256: sha256Hex(file.content),
      })),
    );
    expect(report.files.map((file) => file.path)).toEqual(['docs/notes.md', 'skill_manifest.yaml', 'weather_skill.py']);
  });

  it('fails a bundle whose listing disagrees with its bytes', () => {
    const input = certificationInput(kazmaFiles(), { probes: kazmaProbes() });
    const [manifest, entry] = input.bundle.files;
    const altered = { ...input.bundle, files: [manifest!, { ...entry!, sha256: sha256Hex('something else') }] };

    const report = certify({ ...input, bundle: altered });

    expect(findingsOf(report, 'C5.digest-mismatch').map(placeOf)).toEqual([
      { rule: 'C5.digest-mismatch', severity: 'critical', file: 'weather_skill.py', line: null },
    ]);
    expect(report.files[1]?.sha256).toBe(sha256Hex(entry!.content));
    expect(report.status).toBe('failed');
  });
});
