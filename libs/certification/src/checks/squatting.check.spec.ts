import type { LiveServerProbe } from '../live-server';
import {
  certifyFiles,
  findingsOf,
  kazmaFiles,
  kazmaManifest,
  kazmaProbes,
  lineIn,
  placeOf,
  probe,
  swarmkitFiles,
  SWARMKIT_PACKAGE,
} from '../testing/certification-fixtures';

const popular = (ref: string, owner = 'kazma-team') => ({ ref, owner });

/** Every C10 finding, as rule, severity, file and line. */
const c10 = (report: ReturnType<typeof certifyFiles>) =>
  report.findings.filter((finding) => finding.check === 'C10').map(placeOf);

/** The SwarmKit fixture with one of its texts replaced. */
function swarmkitWith(from: string, to: string, liveServers: LiveServerProbe[] = []) {
  const files = swarmkitFiles();
  const skill = String(files['skill.yaml']).replace(from, to);
  return { files: { ...files, 'skill.yaml': skill }, skill, liveServers };
}

describe('C10 squatting', () => {
  describe('names that mix scripts', () => {
    it('fails an author written with a Cyrillic е ("Acmе Labs"), on its line', () => {
      const manifest = { author: 'Acm\u0435 Labs' };
      const report = certifyFiles(kazmaFiles({ manifest }), { probes: kazmaProbes(), namespace: 'acm-labs' });

      expect(c10(report)).toEqual([
        {
          rule: 'C10.mixed-script',
          severity: 'high',
          file: 'skill_manifest.yaml',
          line: lineIn(kazmaManifest(manifest), 'author:'),
        },
      ]);
      expect(findingsOf(report, 'C10.mixed-script')[0]?.message).toBe(
        "The author 'Acm\u0435 Labs' mixes Latin and Cyrillic letters in the word 'Acm\u0435', so it can pass for a name it is not.",
      );
      expect([report.status, report.checks.C10]).toEqual(['failed', 'fail']);
    });

    it('fails a display name with a Greek omicron', () => {
      const { files, skill } = swarmkitWith('name: Web search', 'name: G\u03bfogle search');
      const report = certifyFiles(files, { probes: [probe(SWARMKIT_PACKAGE)] });

      expect(c10(report)).toEqual([
        { rule: 'C10.mixed-script', severity: 'high', file: 'skill.yaml', line: lineIn(skill, 'name: G') },
      ]);
      expect(findingsOf(report, 'C10.mixed-script')[0]?.message).toContain("The display name 'G\u03bfogle search'");
    });

    it('fails a tool name the skill calls, and a live tool name, that mix scripts', () => {
      const live: LiveServerProbe = {
        server: 'search',
        outcome: 'listed',
        detail: '',
        tools: [{ name: 'r\u0435ad_file', description: 'Reads a file.' }],
        prompts: [],
        resources: [],
      };
      const { files, skill } = swarmkitWith('tool: web_search', 'tool: web_s\u0435arch');
      const report = certifyFiles(files, { probes: [probe(SWARMKIT_PACKAGE)], liveServers: [live] });

      expect(c10(report)).toEqual([
        { rule: 'C10.mixed-script', severity: 'high', file: 'skill.yaml', line: lineIn(skill, 'tool: web_s') },
        { rule: 'C10.mixed-script', severity: 'high', file: 'workspace.yaml', line: null },
      ]);
      expect(
        findingsOf(report, 'C10.mixed-script').map((finding) => finding.message.replace(/ mixes .*$/, '')),
      ).toEqual(["The tool name 'web_s\u0435arch'", "The tool name 'r\u0435ad_file'"]);
    });

    it('accepts names written in one script per word, accents and other scripts included', () => {
      const report = certifyFiles(kazmaFiles({ manifest: { author: 'Zoë Çelik' } }), {
        probes: kazmaProbes(),
        namespace: 'zoe-celik',
      });
      const japanese = swarmkitWith('name: Web search', 'name: Web検索 (ウェブ)');

      expect([c10(report), c10(certifyFiles(japanese.files, { probes: [probe(SWARMKIT_PACKAGE)] }))]).toEqual([[], []]);
    });
  });

  describe('names like popular ones of other owners', () => {
    it('asks for review of a name two edits from a popular skill of another owner: basic, not standard', () => {
      const report = certifyFiles(kazmaFiles({ manifest: { name: 'weather-reprot' } }), {
        probes: kazmaProbes(),
        popularNames: [popular('kazma-team/weather-report'), popular('kazma-team/calendar')],
      });

      expect(c10(report)).toEqual([
        { rule: 'C10.similar-name', severity: 'medium', file: 'skill_manifest.yaml', line: 1 },
      ]);
      expect(findingsOf(report, 'C10.similar-name')[0]?.message).toBe(
        "The name 'weather-reprot' is 1 edit away from 'kazma-team/weather-report', a popular skill or package of another owner, and could be mistaken for it.",
      );
      expect([report.status, report.level, report.requirementsMet.no_review_findings]).toEqual([
        'certified',
        'basic',
        false,
      ]);
    });

    it('fails a pure lookalike of a popular name; the same name in another namespace is another skill', () => {
      const report = certifyFiles(kazmaFiles({ manifest: { name: 'slack-mcp' } }), {
        probes: kazmaProbes(),
        popularNames: [
          popular('@modelcontextprotocol/slack-mcp', 'modelcontextprotocol'),
          popular('acme-corp/s1ack-rncp'),
        ],
      });

      expect(report.findings.filter((finding) => finding.check === 'C10').map((f) => [f.severity, f.message])).toEqual([
        [
          'high',
          "The name 'slack-mcp' is spelled confusably like 'acme-corp/s1ack-rncp', a popular skill or package of another owner, and could be mistaken for it.",
        ],
      ]);
      expect(findingsOf(report, 'C10.confusable-name').map((finding) => finding.rule)).toEqual(['C10.confusable-name']);
      expect(report.status).toBe('failed');
    });

    it('fails a display name that is a lookalike of a popular skill', () => {
      const { files } = swarmkitWith('name: Web search', 'name: W\uff45b search');
      const report = certifyFiles(files, {
        probes: [probe(SWARMKIT_PACKAGE)],
        popularNames: [popular('kazma-team/web-search'), popular('other/websearch', 'other')],
      });

      expect(c10(report).map((finding) => [finding.rule, finding.severity])).toEqual([['C10.mixed-script', 'high']]);
    });

    it("fails an author and namespace spelled like another owner's namespace, reported once", () => {
      const report = certifyFiles(kazmaFiles({ manifest: { author: 'Anthrop1c' } }), {
        probes: kazmaProbes(),
        namespace: 'anthrop1c',
        popularNames: [popular('anthropic/pdf', 'anthropic')],
      });

      expect(report.findings.filter((finding) => finding.check === 'C10').map((f) => [f.rule, f.message])).toEqual([
        [
          'C10.confusable-name',
          "The author 'Anthrop1c' is spelled confusably like the namespace 'anthropic' of another owner, and could be mistaken for it.",
        ],
      ]);
    });

    it('asks for review of a namespace two edits from another owner’s', () => {
      const report = certifyFiles(kazmaFiles({ manifest: { author: 'Kazma Tean' } }), {
        probes: kazmaProbes(),
        namespace: 'kazma-tean',
        popularNames: [popular('kazma-team/calendar')],
      });

      expect(c10(report).map((finding) => [finding.rule, finding.severity])).toEqual([['C10.similar-name', 'medium']]);
    });

    it("ignores the publisher's own skills", () => {
      const report = certifyFiles(kazmaFiles(), {
        probes: kazmaProbes(),
        popularNames: [popular('acme/weather-report', 'someone'), popular('other/weather-report', 'acme')],
      });

      expect(c10(report)).toEqual([]);
    });

    it('reports only the ten closest', () => {
      const names = Array.from({ length: 15 }, (_, i) => popular(`owner${i}/weather-repor${i % 10}`, `owner${i}`));
      const report = certifyFiles(kazmaFiles(), { probes: kazmaProbes(), popularNames: names });

      expect(c10(report)).toHaveLength(10);
    });
  });
});
