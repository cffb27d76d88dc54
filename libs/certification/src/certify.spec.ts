import { sha256Hex } from '@skillhub/bundle';
import { canonicalJson } from '@skillhub/signing';
import { parseKazmaManifestObject } from '@skillhub/skill-formats';
import type { CertificationInput } from './certification-input';
import { InvalidCertificationInputError } from './certification.errors';
import { certify } from './certify';
import { compareFindings } from './finding';
import {
  AGENT_SKILL_FOLDER,
  agentSkillFiles,
  certificationInput,
  certifyFiles,
  findingsOf,
  handmadeBundle,
  kazmaFiles,
  kazmaProbes,
  NOW,
  placeOf,
  probe,
  SWARMKIT_PACKAGE,
  swarmkitFiles,
} from './testing/certification-fixtures';

const kazmaInput = (): CertificationInput => certificationInput(kazmaFiles(), { probes: kazmaProbes() });

describe('certify', () => {
  describe('a good skill of each format', () => {
    it('certifies an unsigned Kazma skill at basic: signing is what it lacks for standard', () => {
      const report = certify(kazmaInput());

      expect([report.status, report.level, report.score]).toEqual(['certified', 'basic', 100]);
      expect(report.findings.filter((f) => f.severity !== 'info').map((f) => f.rule)).toEqual([
        'C3.unsigned',
        'C4.unsigned',
      ]);
      expect(report.requirementsMet).toMatchObject({ checksum_valid: false, signature_valid: false });
      expect(report.entryPointChecksum).toBe(sha256Hex(kazmaInput().bundle.files[1]?.content ?? ''));
      expect(report.pinnedPackages).toEqual([
        { registry: 'npm', name: '@acme/weather-mcp', version: '2.1.0', integrity: kazmaProbes()[0]?.integrity },
      ]);
    });

    it('certifies a SwarmKit skill at standard, reporting the Kazma signing requirements it cannot meet as unmet', () => {
      const report = certifyFiles(swarmkitFiles(), { probes: [probe(SWARMKIT_PACKAGE)] });

      expect([report.status, report.level]).toEqual(['certified', 'standard']);
      expect(report.checks).toMatchObject({ C3: 'skipped', C4: 'skipped', C8: 'pass', C9: 'pass' });
      expect(report.requirementsMet).toMatchObject({
        entry_point_exists: true,
        checksum_valid: false,
        signature_valid: false,
        license_present: true,
      });
      expect(report.entryPointChecksum).toBeNull();
      expect(Object.keys(report.toolHashes)).toEqual(['web_search']);
    });

    it('certifies an Agent Skill at standard', () => {
      const report = certifyFiles(agentSkillFiles(), { rootFolder: AGENT_SKILL_FOLDER });

      expect([report.status, report.level, report.score]).toEqual(['certified', 'standard', 100]);
      expect(report.files.map((file) => file.path)).toEqual(['SKILL.md', 'scripts/extract.py']);
    });

    it('lists every requirement and every check, and dates the certificate from `now` and the lifetime', () => {
      const report = certify(kazmaInput());

      expect(Object.keys(report.requirementsMet)).toHaveLength(15);
      expect(Object.keys(report.checks)).toEqual([
        'C1',
        'C2',
        'C3',
        'C4',
        'C5',
        'C6',
        'C7',
        'C8',
        'C9',
        'C10',
        'C11',
        'C12',
        'C13',
        'C14',
      ]);
      expect([report.issuedAt, report.expiresAt, report.policyVersion]).toEqual([
        NOW.toISOString(),
        '2026-06-01T12:00:00.000Z',
        1,
      ]);
    });
  });

  describe('determinism', () => {
    it('gives the same report bytes for the same input', () => {
      expect(JSON.stringify(certify(kazmaInput()))).toBe(JSON.stringify(certify(kazmaInput())));
    });

    it('digests exactly the canonical JSON of status, level, findings, requirements and checks', () => {
      const { status, level, findings, requirementsMet, checks, resultsSha256 } = certify(kazmaInput());

      expect(resultsSha256).toBe(sha256Hex(canonicalJson({ status, level, findings, requirementsMet, checks })));
    });

    it('sorts findings by check number, severity, file, line and rule, each with a fix hint', () => {
      const report = certifyFiles(
        kazmaFiles({ code: 'import os\nos.system("ls")\neval(x)\n', manifest: { name: 'Bad Name' } }),
      );

      expect(report.findings.length).toBeGreaterThan(5);
      expect([...report.findings].sort(compareFindings)).toEqual(report.findings);
      expect(report.findings.every((finding) => finding.fixHint.trim() !== '')).toBe(true);
      const checkNumbers = report.findings.map((finding) => Number(finding.check.slice(1)));
      expect(checkNumbers).toEqual([...checkNumbers].sort((a, b) => a - b));
      expect(new Set(checkNumbers)).toEqual(new Set([1, 3, 4, 6, 8, 9, 10, 11, 13, 14]));
    });
  });

  describe('fail-closed', () => {
    it('turns a check that throws into a critical check-error and a failed verdict, never a pass', () => {
      const input = kazmaInput();
      const skill = input.skill as NonNullable<typeof input.skill>;
      const hostile = Object.defineProperty({ ...skill }, 'tools', {
        get: () => {
          throw new Error('boom');
        },
      });

      const report = certify({ ...input, skill: hostile });

      expect(findingsOf(report, 'C13.check-error').map(placeOf)).toEqual([
        { rule: 'C13.check-error', severity: 'critical', file: null, line: null },
      ]);
      expect(findingsOf(report, 'C13.check-error')[0]?.message).toContain('Error: boom');
      expect([report.status, report.level, report.checks.C13]).toEqual(['failed', 'none', 'fail']);
      expect(report.requirementsMet.no_critical_vulnerabilities).toBe(false);
      expect(report.issuedAt).toBeNull();
    });

    it('fails every check that reads probe results hidden behind a throwing Proxy, and leaves their requirements unmet', () => {
      const probes = new Proxy(kazmaProbes(), {
        get: () => {
          throw { toString: () => 'not even an Error' };
        },
      });

      const report = certify({ ...kazmaInput(), probes });

      expect(report.findings.filter((f) => f.rule.endsWith('.check-error')).map((f) => f.rule)).toEqual([
        'C8.check-error',
        'C9.check-error',
      ]);
      expect(report.requirementsMet).toMatchObject({
        packages_exist: false,
        packages_pinned: false,
        packages_point_back: false,
      });
      expect(report.status).toBe('failed');
    });

    it('fails C8 and C9 when the probe results do not line up with the packages the skill names', () => {
      const report = certify({ ...kazmaInput(), probes: [] });

      expect(findingsOf(report, 'C8.check-error')[0]?.message).toContain('names 1 packages but 0 probe results');
      expect(report.checks).toMatchObject({ C8: 'fail', C9: 'fail' });
    });

    it('refuses arguments the worker got wrong instead of judging with them', () => {
      expect(() => certify({ ...kazmaInput(), now: new Date('nonsense') })).toThrow(InvalidCertificationInputError);
      expect(() => certify({ ...kazmaInput(), certificateLifetimeDays: 0 })).toThrow(/certificateLifetimeDays/);
      expect(() => certify({ ...kazmaInput(), policyVersion: -1 })).toThrow(/policyVersion/);
    });
  });

  describe('a Kazma manifest submitted alone (kazma hub submit)', () => {
    const manifestOnlyInput = (ownerMatches: boolean): CertificationInput => {
      const parsed = parseKazmaManifestObject({
        name: 'weather-report',
        version: '1.2.0',
        description: 'Fetches current weather and multi-day forecasts for a city.',
        author: 'Acme',
        license: 'MIT',
        entry_point: 'weather_skill',
      });
      return {
        ...kazmaInput(),
        bundle: handmadeBundle({}),
        skill: parsed.skill,
        parseProblems: parsed.problems,
        probes: [],
        namespace: { slug: 'acme', ownerMatches },
        manifestOnly: true,
      };
    };

    it('runs the checks a manifest allows, skips the others with a reason, and is never certified', () => {
      const report = certify(manifestOnlyInput(true));

      expect([report.status, report.level, report.issuedAt]).toEqual(['inconclusive', 'none', null]);
      expect(report.checks).toEqual({
        C1: 'pass',
        C2: 'skipped',
        C3: 'skipped',
        C4: 'skipped',
        C5: 'skipped',
        C6: 'skipped',
        C7: 'pass',
        C8: 'pass',
        C9: 'pass',
        C10: 'pass',
        C11: 'skipped',
        C12: 'pass',
        C13: 'pass',
        C14: 'skipped',
      });
      expect(findingsOf(report, 'C11.skipped')[0]?.message).toContain('only the manifest was submitted');
      expect(report.requirementsMet).toMatchObject({
        manifest_valid: true,
        entry_point_exists: false,
        checksum_valid: false,
        security_lint_pass: false,
      });
    });

    it('fails when the submitter does not own the namespace', () => {
      const report = certify(manifestOnlyInput(false));

      expect(report.status).toBe('failed');
      expect(findingsOf(report, 'C7.not-namespace-owner')).toHaveLength(1);
    });
  });
});
