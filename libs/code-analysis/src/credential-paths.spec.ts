import type { FileAnalysis } from './analysis.types';
import { loadCodeAnalyzer, type CodeAnalyzer } from './code-analyzer';
import { CREDENTIAL_WORDS, ENV_FILE, credentialIn } from './credential-paths';

let analyzer: CodeAnalyzer;
beforeAll(async () => {
  analyzer = await loadCodeAnalyzer();
});

const STORES: [string, string][] = [
  ['~/.ssh', 'SSH keys'],
  ['~/.ssh/', 'SSH keys'],
  ['keys/id_ed25519', 'an SSH key'],
  ['backup/id_rsa.bak', 'an SSH key'],
  ['C:\\Users\\me\\.aws\\credentials', 'AWS credentials'],
  ['~/.config/gh/hosts.yml', 'GitHub CLI tokens'],
  ['~/.cargo/credentials.toml', 'registry or vault tokens'],
  ['~/.vault-token', 'registry or vault tokens'],
  ['~/.password-store/bank.gpg', 'a password store'],
  ['/etc/shadow', 'system account files'],
  ['../../etc/master.passwd', 'system account files'],
  ['~/.config/google-chrome/Default/Cookies', 'browser cookies or saved logins'],
  ['.env', ENV_FILE],
  ['config/.env.production', ENV_FILE],
];

describe('credentialIn', () => {
  it.each(STORES)('names %s as %s', (path, what) => {
    expect(credentialIn(path)).toBe(what);
  });

  it.each(['id_rsa2fa.txt', 'cookies', '.env.example', '.env.schema', 'docs/ssh.md', 'etc/passwords.txt'])(
    'leaves %s alone',
    (path) => {
      expect(credentialIn(path)).toBeNull();
    },
  );

  // `.env` literals are left to the reads that use them (a skill's own configuration is one).
  it.each(STORES.filter(([, what]) => what !== ENV_FILE).map(([path]) => path))(
    'finds a credential word in %s, so string literals holding it are looked at',
    (path) => {
      expect(path.toLowerCase().replace(/\\/g, '/').match(CREDENTIAL_WORDS)).not.toBeNull();
    },
  );
});

/** The plainest read of `path` in each language, and the file it is in. */
const reads: Record<'python' | 'shell' | 'javascript', { file: string; source: (path: string) => string }> = {
  python: { file: 'scripts/read.py', source: (path) => `import os\nopen(os.path.expanduser("${path}")).read()\n` },
  shell: { file: 'scripts/read.sh', source: (path) => `cat ${path}\n` },
  javascript: {
    file: 'scripts/read.js',
    source: (path) => `const fs = require('fs');\nfs.readFileSync('${path}', 'utf8');\n`,
  },
};

const analyse = (language: keyof typeof reads, path: string): FileAnalysis =>
  analyzer.analyzeFile(reads[language].file, Buffer.from(reads[language].source(path), 'utf8'), language);

describe('one list for every analyser', () => {
  it.each(
    ['~/.cargo/credentials', '../../etc/shadow', '~/.config/gh/hosts.yml', '~/.password-store/x.gpg'].flatMap((path) =>
      (['python', 'shell', 'javascript'] as const).map((language) => [language, path] as const),
    ),
  )('%s reports a read of %s as credentials-access', (language, path) => {
    expect(analyse(language, path).issues.map((issue) => issue.kind)).toContain('credentials-access');
  });

  it.each(['python', 'shell', 'javascript'] as const)(
    '%s leaves a file named cookies in the working folder alone',
    (language) => {
      expect(analyse(language, 'cookies').issues).toEqual([]);
    },
  );
});
