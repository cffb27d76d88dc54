import { certify } from '../certify';
import {
  AGENT_SKILL_FOLDER,
  agentSkillFiles,
  certificationInput,
  certifyFiles,
  findingsOf,
  kazmaFiles,
  kazmaManifest,
  kazmaProbes,
  lineIn,
  placeOf,
  probe,
  SWARMKIT_PACKAGE,
  swarmkitFiles,
} from '../testing/certification-fixtures';

const MANIFEST = 'skill_manifest.yaml';

describe('C1 manifest', () => {
  it('fails a parse error, pointing at the file and line the parser names, and costs Kazma 30 points', () => {
    const manifest = { version: 'v1.0' };
    const report = certifyFiles(kazmaFiles({ manifest }), { probes: kazmaProbes() });

    expect(findingsOf(report, 'C1.manifest-error').map(placeOf)).toEqual([
      {
        rule: 'C1.manifest-error',
        severity: 'high',
        file: MANIFEST,
        line: lineIn(kazmaManifest(manifest), 'version:'),
      },
    ]);
    expect(findingsOf(report, 'C1.score-invalid-manifest')[0]?.message).toContain('−30');
    expect([report.status, report.score, report.requirementsMet.manifest_valid]).toEqual(['failed', 70, false]);
  });

  it('points a problem of the publish request at no file', () => {
    const report = certifyFiles(agentSkillFiles(), { rootFolder: AGENT_SKILL_FOLDER, version: 'v2' });

    expect(findingsOf(report, 'C1.manifest-error').map(placeOf)).toEqual([
      { rule: 'C1.manifest-error', severity: 'high', file: null, line: null },
    ]);
  });

  it('reports a parser warning as advisory, without touching the level', () => {
    const manifest = { colour: 'blue' };
    const report = certifyFiles(kazmaFiles({ manifest }), { probes: kazmaProbes() });

    expect(findingsOf(report, 'C1.manifest-warning').map(placeOf)).toEqual([
      {
        rule: 'C1.manifest-warning',
        severity: 'low',
        file: MANIFEST,
        line: lineIn(kazmaManifest(manifest), 'colour:'),
      },
    ]);
    expect([report.checks.C1, report.level]).toEqual(['warn', 'basic']);
  });

  it("takes Kazma's 5 points off per unknown permission, and fails below a score of 80", () => {
    const permissions = ['network_outbound', 'teleport', 'telepathy', 'time_travel', 'x_ray', 'levitate'];
    const report = certifyFiles(kazmaFiles({ manifest: { permissions } }), { probes: kazmaProbes() });

    expect(findingsOf(report, 'C1.score-unknown-permission')).toHaveLength(5);
    expect(findingsOf(report, 'C1.score-unknown-permission')[0]).toMatchObject({ severity: 'info', file: MANIFEST });
    expect(findingsOf(report, 'C11.kazma-score-below-basic').map(placeOf)).toEqual([
      { rule: 'C11.kazma-score-below-basic', severity: 'high', file: null, line: null },
    ]);
    expect([report.score, report.status, report.requirementsMet.security_lint_pass]).toEqual([75, 'failed', false]);
  });

  it('shows a SwarmKit skill without a license as low, failing nothing: SwarmKit has no license field', () => {
    const report = certifyFiles(swarmkitFiles({ license: false }), { probes: [probe(SWARMKIT_PACKAGE)] });

    const [finding] = findingsOf(report, 'C1.license-missing');
    expect(finding && placeOf(finding)).toEqual({
      rule: 'C1.license-missing',
      severity: 'low',
      file: 'skill.yaml',
      line: null,
    });
    expect(finding?.message).toContain('SwarmKit skills have no licence field, so this fails nothing');
    expect(finding?.fixHint).toContain('LICENSE file');
    expect([report.checks.C1, report.requirementsMet.license_present]).toEqual(['warn', false]);
  });

  it('shows an Agent Skill without a license as low, failing nothing: the format makes it optional', () => {
    const files = agentSkillFiles();
    const unlicensed = { ...files, 'SKILL.md': String(files['SKILL.md']).replace('license: Apache-2.0\n', '') };
    const report = certifyFiles(unlicensed, { rootFolder: AGENT_SKILL_FOLDER });

    const [finding] = findingsOf(report, 'C1.license-missing');
    expect(finding && placeOf(finding)).toEqual({
      rule: 'C1.license-missing',
      severity: 'low',
      file: 'SKILL.md',
      line: null,
    });
    expect(finding?.message).toContain('the Agent Skills format makes it optional');
    expect([report.checks.C1, report.requirementsMet.license_present]).toEqual(['warn', false]);
  });

  it('counts a LICENSE file at the root as the license of a format without the field', () => {
    const report = certifyFiles(swarmkitFiles(), { probes: [probe(SWARMKIT_PACKAGE)] });

    expect(findingsOf(report, 'C1.license-missing')).toEqual([]);
    expect(report.requirementsMet.license_present).toBe(true);
  });

  it("fails a Kazma manifest without a license, as Kazma's loader refuses it", () => {
    const report = certifyFiles(kazmaFiles({ manifest: { license: undefined } }), { probes: kazmaProbes() });

    expect(findingsOf(report, 'C1.manifest-error').map((finding) => [finding.severity, finding.message])).toEqual([
      ['high', expect.stringContaining('license is required')],
    ]);
    expect([report.status, report.requirementsMet.manifest_valid]).toEqual(['failed', false]);
  });

  it("holds a description under 20 characters back from standard (Kazma's description_complete)", () => {
    const input = certificationInput(kazmaFiles({ manifest: { description: 'Gets the weather.' } }), {
      probes: kazmaProbes(),
    });
    const report = certify(input);

    expect(findingsOf(report, 'C1.description-incomplete').map(placeOf)).toEqual([
      { rule: 'C1.description-incomplete', severity: 'medium', file: MANIFEST, line: null },
    ]);
    expect([report.level, report.requirementsMet.description_complete]).toEqual(['basic', false]);
  });

  it('records the digest of the manifest without its signature fields', () => {
    const plain = certifyFiles(kazmaFiles(), { probes: kazmaProbes() });
    const withChecksum = certifyFiles(kazmaFiles({ manifest: { checksum: 'f'.repeat(64) } }), {
      probes: kazmaProbes(),
    });

    expect(plain.manifestSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(withChecksum.manifestSha256).toBe(plain.manifestSha256);
  });
});
