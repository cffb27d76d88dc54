import { randomBytes } from 'node:crypto';
import type { CertificationReport } from '../report';
import { MAX_SCANNED_BYTES } from '../scanned-text';
import {
  AGENT_SKILL_FOLDER,
  agentSkillFiles,
  certifyFiles,
  findingsOf,
  kazmaFiles,
  kazmaProbes,
  placeOf,
} from '../testing/certification-fixtures';

/** A Kazma skill with one more code file; its content starts on line 1. */
const withFile = (path: string, content: string, manifest: Record<string, unknown> = {}): CertificationReport =>
  certifyFiles(kazmaFiles({ manifest, extra: { [path]: content } }), { probes: kazmaProbes() });

const rules = (report: CertificationReport): string[] =>
  report.findings.filter((f) => f.check === 'C11' && f.severity !== 'info').map((f) => f.rule);

describe('C11 code', () => {
  it.each([
    ['helper.py', 'result = eval(expression)', 'C11.eval'],
    ['helper.py', 'exec(source)', 'C11.exec'],
    ['helper.py', 'os.system("rm -rf " + path)', 'C11.os-system'],
    ['helper.py', 'out = os.popen(cmd).read()', 'C11.os-system'],
    ['helper.py', 'subprocess.run(cmd, shell=True)', 'C11.shell-true'],
    ['helper.py', 'obj = pickle.loads(blob)', 'C11.pickle'],
    ['helper.py', 'code = marshal.loads(blob)', 'C11.marshal'],
    ['helper.py', 'key = open(os.path.expanduser("~/.ssh/id_rsa")).read()', 'C11.ssh-key-read'],
    ['helper.py', 'config = dotenv_values(".env")', 'C11.sensitive-file-read'],
    ['helper.py', 'users = open("/etc/passwd").read()', 'C11.sensitive-file-read'],
    ['helper.py', 'AWS_KEY = "AKIAIOSFODNN7ABCDEFG"', 'C11.secret-aws-key'],
    ['helper.py', `TOKEN = "ghp_${'a1B2'.repeat(9)}"`, 'C11.secret-github-token'],
    ['helper.py', 'SLACK = "xoxb-1234567890-abcdefghij"', 'C11.secret-slack-token'],
    ['helper.py', 'PEM = """-----BEGIN RSA PRIVATE KEY-----', 'C11.secret-private-key'],
    ['helper.py', 'db_password = "s3cr3t-Pa55w0rd-2024!"', 'C11.secret-literal'],
    ['helper.js', "require('child_process').execSync(command)", 'C11.child-process-exec'],
    ['helper.js', "const run = new Function('a', body)", 'C11.new-function'],
    ['config.json', '{"api_key": "sk-live-4f9a8b7c6d5e4f3a2b1c"}', 'C11.secret-literal'],
  ])('fails %s with `%s` as %s, on its line', (path, line, rule) => {
    const report = withFile(path, `# scanned\n\n${line}\n`);

    expect(findingsOf(report, rule).map(placeOf)).toContainEqual({ rule, severity: 'high', file: path, line: 3 });
    expect([report.status, report.checks.C11, report.requirementsMet.security_lint_pass]).toEqual([
      'failed',
      'fail',
      false,
    ]);
  });

  it('asks for review of __import__, which Kazma also scores', () => {
    const report = withFile('helper.py', 'import os\nmod = __import__(name)\n');

    expect(findingsOf(report, 'C11.dunder-import').map(placeOf)).toEqual([
      { rule: 'C11.dunder-import', severity: 'medium', file: 'helper.py', line: 2 },
    ]);
    expect([report.score, report.level]).toEqual([85, 'basic']);
  });

  it('follows base64-decoded text into exec on the same line or through a variable', () => {
    const report = withFile(
      'helper.py',
      'import base64\nexec(base64.b64decode("cHJpbnQoMSk="))\npayload = base64.b64decode(blob)\nprint(payload)\nrun = exec(payload)\n',
    );

    expect(findingsOf(report, 'C11.base64-exec').map((f) => [f.severity, f.line])).toEqual([
      ['high', 2],
      ['high', 5],
    ]);
  });

  it('does not take methods or placeholders for dangerous calls or secrets', () => {
    const report = withFile(
      'helper.py',
      [
        'value = ast.literal_eval(text)',
        'API_KEY = "YOUR_API_KEY_GOES_HERE"',
        'token = "${SLACK_TOKEN_FROM_ENV}"',
        'password = "<your password here>"',
        'max_tokens = 1000',
        'env = os.environ["HOME"]',
      ].join('\n'),
    );
    const js = withFile('helper.js', 'const match = pattern.exec(text);\nconst out = process.env.OUT;\n');

    expect([rules(report), report.score, report.level]).toEqual([[], 100, 'basic']);
    expect([rules(js), js.score]).toEqual([[], 100]);
  });

  it('scores a method named eval in Python as Kazma does, holding the skill back from standard', () => {
    const report = withFile('model.py', 'import torch\n\nmodel.eval()\n');

    expect(findingsOf(report, 'C11.eval')).toEqual([]);
    expect(findingsOf(report, 'C11.score-eval').map(placeOf)).toEqual([
      { rule: 'C11.score-eval', severity: 'info', file: 'model.py', line: 3 },
    ]);
    expect(rules(report)).toEqual(['C11.kazma-score-below-standard']);
    expect([report.score, report.level]).toEqual([80, 'basic']);
  });

  it("flags Kazma's own example of a hard-coded secret", () => {
    const report = withFile('main.py', 'api_key = "sk-1234567890abcdef"\n');

    expect(findingsOf(report, 'C11.secret-literal').map(placeOf)).toEqual([
      { rule: 'C11.secret-literal', severity: 'high', file: 'main.py', line: 1 },
    ]);
    expect(report.score).toBe(90);
  });

  it("adds up Kazma's deductions once per file, floored at 0", () => {
    const code = 'eval(a)\nexec(b)\n__import__(c)\nos.system(d)\nSECRET_KEY = "abcdefghijklmnop1234"\n';
    const report = certifyFiles(kazmaFiles({ extra: { 'a.py': code, 'b.py': code } }), { probes: kazmaProbes() });

    expect(report.findings.filter((f) => f.rule.startsWith('C11.score-')).map((f) => `${f.file}:${f.rule}`)).toEqual([
      'a.py:C11.score-eval',
      'a.py:C11.score-exec',
      'a.py:C11.score-dunder-import',
      'a.py:C11.score-os-system',
      'a.py:C11.score-secret',
      'b.py:C11.score-eval',
      'b.py:C11.score-exec',
      'b.py:C11.score-dunder-import',
      'b.py:C11.score-os-system',
      'b.py:C11.score-secret',
    ]);
    expect([report.score, report.requirementsMet.no_critical_vulnerabilities]).toEqual([0, false]);
  });

  it('asks a Kazma skill to declare the network and file writes its code uses, once per file', () => {
    const code =
      'import requests\nr = requests.get(url)\ns = requests.post(url)\nwith open(path, "w") as f:\n    pass\n';
    const undeclared = withFile('helper.py', code, { permissions: ['file_read'] });
    const declared = withFile('helper.py', code, { permissions: ['network_outbound', 'file_write'] });

    expect(findingsOf(undeclared, 'C11.undeclared-network').map(placeOf)).toEqual([
      { rule: 'C11.undeclared-network', severity: 'medium', file: 'helper.py', line: 2 },
    ]);
    expect(findingsOf(undeclared, 'C11.undeclared-file-write').map(placeOf)).toEqual([
      { rule: 'C11.undeclared-file-write', severity: 'medium', file: 'helper.py', line: 4 },
    ]);
    expect(undeclared.level).toBe('basic');
    expect(rules(declared)).toEqual([]);
  });

  it('compares permissions only for Kazma skills, whose vocabulary says what network use is', () => {
    const report = certifyFiles(
      agentSkillFiles({ extra: { 'scripts/fetch.py': 'import requests\nrequests.get(url)\n' } }),
      { rootFolder: AGENT_SKILL_FOLDER },
    );

    expect(rules(report)).toEqual([]);
    expect(report.level).toBe('standard');
  });

  it('scans a script known only by its #! line, and reading a file is not writing it', () => {
    const report = withFile('bin/run', '#!/usr/bin/env python3\ndata = open(path, "rb").read()\nos.system(data)\n');

    // Not a .py file, so not in Kazma's score: the hub's own rule fails it.
    expect([rules(report), report.score]).toEqual([['C11.os-system'], 100]);
    expect(findingsOf(report, 'C11.os-system')[0]?.line).toBe(3);
  });

  it('finds a call at the end of a very long (minified) line', () => {
    const report = withFile('bundle.min.js', `var a=${'1+'.repeat(20_000)}1;eval(a)`);

    expect(findingsOf(report, 'C11.eval').map((f) => f.line)).toEqual([1]);
  });

  it('lists ten lines per rule and file, and says how many more there are', () => {
    const report = withFile('helper.py', 'eval(x)\n'.repeat(12));

    expect(findingsOf(report, 'C11.eval')).toHaveLength(10);
    expect(findingsOf(report, 'C11.eval')[9]?.message).toContain('(2 more lines of this file too.)');
  });

  it('fails a code file too large to be scanned whole', () => {
    // Random padding, so that the bundle stays under the reader's compression-ratio limit.
    const report = withFile('big.py', `# ${randomBytes(MAX_SCANNED_BYTES / 2).toString('hex')}\neval(x)\n`);

    expect(findingsOf(report, 'C11.not-fully-scanned').map(placeOf)).toEqual([
      { rule: 'C11.not-fully-scanned', severity: 'high', file: 'big.py', line: null },
    ]);
    expect(findingsOf(report, 'C11.eval')).toEqual([]);
  });
});
