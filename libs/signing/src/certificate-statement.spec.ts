import { generateKeyPairSync } from 'node:crypto';
import {
  CERTIFICATE_PAYLOAD_TYPE,
  decodeStatement,
  encodeStatement,
  manifestSha256,
  signCertificate,
  verifyCertificate,
  type CertificateStatement,
  type CertifiedServer,
} from './certificate-statement';
import { canonicalJson } from './canonical-json';
import { sha256 } from '@skillhub/bundle';
import { signEnvelope } from './dsse';
import { keyId } from './hub-key';
import { MALFORMED_STATEMENT, MalformedStatementError, UNEXPECTED_PAYLOAD_TYPE } from './signing.errors';

const digestOf = (text: string): string => sha256(text).toString('hex');

const statement = (): CertificateStatement => ({
  skill: 'kazma-team/weather-report',
  version: '1.2.3',
  bundleSha256: digestOf('bundle'),
  manifestSha256: digestOf('manifest'),
  entryPointChecksum: digestOf('weather_skill.py'),
  files: { 'skill_manifest.yaml': digestOf('manifest'), 'weather_skill.py': digestOf('weather_skill.py') },
  capabilities: ['weather', 'mcp'],
  permissions: ['network_outbound'],
  codeCapabilities: ['network', 'env_read'],
  packages: [
    { registry: 'pypi', name: 'mcp-server-qdrant', version: '0.7.1', integrity: digestOf('wheel') },
    { registry: 'npm', name: '@scope/weather-mcp', version: '2.0.0', integrity: 'sha512-AAAA' },
  ],
  tools: { get_forecast: digestOf('tool') },
  servers: [
    {
      name: 'weather',
      transport: 'stdio',
      launch: 'npm',
      argv: ['npx', '-y', '@scope/weather-mcp@2.0.0'],
      url: null,
      package: { registry: 'npm', name: '@scope/weather-mcp', version: '2.0.0', integrity: 'sha512-AAAA' },
      file: null,
      env: { WEATHER_TOKEN: '${WEATHER_TOKEN}' },
      cwd: null,
      tools: { forecast: digestOf('forecast') },
    },
    {
      name: 'docs',
      transport: 'streamable-http',
      launch: 'remote',
      argv: [],
      url: 'https://docs.example.com/mcp',
      package: null,
      file: null,
      env: {},
      cwd: null,
      tools: null,
    },
  ],
  level: 'standard',
  checkResultsSha256: digestOf('checks'),
  issuedAt: '2025-06-01T12:00:00.000Z',
  expiresAt: '2026-06-01T12:00:00.000Z',
  logIndex: 41,
});

const problemsOf = (fn: () => unknown): Array<{ path: string; message: string }> => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(MalformedStatementError);
    expect((error as MalformedStatementError).code).toBe(MALFORMED_STATEMENT);
    return (error as MalformedStatementError).problems.map(({ path, message }) => ({ path, message }));
  }
  throw new Error('expected a MalformedStatementError');
};

describe('encodeStatement / decodeStatement', () => {
  it('writes canonical JSON: sorted keys, no whitespace, set-like lists sorted', () => {
    const text = encodeStatement(statement()).toString('utf8');
    expect(text).not.toMatch(/\s/);
    expect(text.startsWith('{"bundleSha256":')).toBe(true);
    expect(text).toContain('"capabilities":["mcp","weather"]');
    expect(text.indexOf('"registry":"npm"')).toBeLessThan(text.indexOf('"registry":"pypi"'));
    expect(text).toBe(canonicalJson(JSON.parse(text)));
  });

  it('gives identical bytes for identical statements, whatever the order they were built in', () => {
    const a = statement();
    const b: CertificateStatement = {
      ...statement(),
      files: { 'weather_skill.py': a.files['weather_skill.py'], 'skill_manifest.yaml': a.files['skill_manifest.yaml'] },
      capabilities: [...a.capabilities].reverse(),
      packages: [...a.packages].reverse(),
    };
    expect(encodeStatement(b).equals(encodeStatement(a))).toBe(true);
  });

  it('round-trips', () => {
    const decoded = decodeStatement(encodeStatement(statement()));
    expect(encodeStatement(decoded).equals(encodeStatement(statement()))).toBe(true);
    expect(decoded.logIndex).toBe(41);
    expect(decoded.files['weather_skill.py']).toBe(digestOf('weather_skill.py'));
  });

  it('accepts a statement without entry point, for formats that have none', () => {
    const agentSkill = { ...statement(), entryPointChecksum: null, level: 'basic' as const };
    expect(decodeStatement(encodeStatement(agentSkill)).entryPointChecksum).toBeNull();
  });

  it('reports every problem at once, each with its field path', () => {
    const bad = {
      ...statement(),
      skill: 'Kazma Team/Weather',
      bundleSha256: digestOf('x').toUpperCase(),
      files: { 'a.py': 'abc' },
      permissions: ['file_read', 'file_read'],
      packages: [{ registry: 'maven', name: 'x', version: '1', integrity: '' }],
      level: 'gold',
      issuedAt: '2025-06-01T12:00:00Z',
      logIndex: -1,
      extra: true,
    } as unknown as CertificateStatement;
    expect(problemsOf(() => encodeStatement(bad)).map((p) => p.path)).toEqual([
      'skill',
      'bundleSha256',
      'files.a.py',
      'permissions[1]',
      'packages[0].registry',
      'packages[0].integrity',
      'level',
      'issuedAt',
      'logIndex',
      'extra',
    ]);
  });

  it('lists servers by name and records exactly what may start', () => {
    const text = encodeStatement(statement()).toString('utf8');
    expect(text.indexOf('"name":"docs"')).toBeLessThan(text.indexOf('"name":"weather"'));
    const decoded = decodeStatement(encodeStatement(statement()));
    expect(decoded.servers.map((server) => [server.name, server.launch, server.argv])).toEqual([
      ['docs', 'remote', []],
      ['weather', 'npm', ['npx', '-y', '@scope/weather-mcp@2.0.0']],
    ]);
  });

  it('refuses servers it could not enforce: a name twice, an unknown launch, a field nobody checks', () => {
    const [weather, docs] = statement().servers as [CertifiedServer, CertifiedServer];
    const bad = {
      ...statement(),
      servers: [
        weather,
        { ...docs, name: 'weather' },
        { ...docs, name: 'shell', launch: 'sh-c' },
        { ...docs, name: 'extra', sandbox: 'off' },
        { ...docs, name: 'env', env: { TOKEN: 42 } },
      ],
    } as unknown as CertificateStatement;
    expect(problemsOf(() => encodeStatement(bad)).map((p) => p.path)).toEqual([
      'servers[2].launch',
      'servers[3].sandbox',
      'servers[4].env.TOKEN',
      'servers[1].name',
    ]);
  });

  it('requires every field', () => {
    const { tools: _tools, ...withoutTools } = statement();
    expect(problemsOf(() => encodeStatement(withoutTools as CertificateStatement))).toEqual([
      { path: 'tools', message: 'is required' },
    ]);
  });

  it('refuses an expiry that is not after the issue time', () => {
    const backwards = { ...statement(), expiresAt: statement().issuedAt };
    expect(problemsOf(() => encodeStatement(backwards)).map((p) => p.path)).toEqual(['expiresAt']);
  });

  it.each([
    ['bytes that are not UTF-8', Buffer.from([0xff, 0xfe])],
    ['text that is not JSON', Buffer.from('{"skill":')],
    ['a JSON array', Buffer.from('[]')],
    ['indented JSON', Buffer.from(JSON.stringify(JSON.parse(encodeStatement(statement()).toString()), null, 2))],
    ['keys out of order', Buffer.from(JSON.stringify({ ...statement(), skill: statement().skill }))],
    ['a byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), encodeStatement(statement())])],
  ])('decodes only canonical statements: refuses %s', (_label, bytes) => {
    expect(problemsOf(() => decodeStatement(bytes)).length).toBeGreaterThan(0);
  });

  it('refuses a duplicated key, which other JSON parsers could read the other way', () => {
    const canonical = encodeStatement(statement()).toString('utf8');
    const duplicated = canonical.replace('"level":"standard"', '"level":"none","level":"standard"');
    expect(problemsOf(() => decodeStatement(Buffer.from(duplicated)))).toEqual([
      { path: '', message: 'is not in canonical form (sorted keys and lists, no whitespace)' },
    ]);
  });
});

describe('manifestSha256', () => {
  const manifest = { name: 'weather-report', version: '1.2.3', tools: { get_forecast: { description: 'Forecast' } } };

  it('is the SHA-256 of the canonical JSON of the manifest', () => {
    expect(manifestSha256(manifest)).toBe(sha256(canonicalJson(manifest)).toString('hex'));
  });

  it('leaves out the fields `hub sign` adds, so signing a skill keeps its manifest digest', () => {
    const signed = { ...manifest, checksum: digestOf('py'), signature: digestOf('sig') };
    expect(manifestSha256(signed)).toBe(manifestSha256(manifest));
  });

  it('does not depend on key order, and does change with any other field', () => {
    expect(manifestSha256({ version: '1.2.3', tools: manifest.tools, name: 'weather-report' })).toBe(
      manifestSha256(manifest),
    );
    expect(manifestSha256({ ...manifest, version: '1.2.4' })).not.toBe(manifestSha256(manifest));
  });
});

describe('signCertificate / verifyCertificate', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const trusted = [{ keyid: keyId(publicKey), publicKey }];

  it('signs the canonical statement under the certificate payload type and reads it back', () => {
    const envelope = signCertificate(statement(), privateKey, keyId(publicKey));
    expect(envelope.payloadType).toBe(CERTIFICATE_PAYLOAD_TYPE);
    expect(Buffer.from(envelope.payload, 'base64').equals(encodeStatement(statement()))).toBe(true);
    expect(verifyCertificate(JSON.parse(JSON.stringify(envelope)), trusted)).toEqual(
      decodeStatement(encodeStatement(statement())),
    );
  });

  it('refuses a genuine envelope of another payload type', () => {
    const other = signEnvelope(
      'application/vnd.skillhub.revocations+json',
      encodeStatement(statement()),
      privateKey,
      keyId(publicKey),
    );
    expect(() => verifyCertificate(other, trusted)).toThrow(expect.objectContaining({ code: UNEXPECTED_PAYLOAD_TYPE }));
  });

  it('refuses a signed payload that is not a statement', () => {
    const envelope = signEnvelope(CERTIFICATE_PAYLOAD_TYPE, Buffer.from('{}'), privateKey, keyId(publicKey));
    expect(() => verifyCertificate(envelope, trusted)).toThrow(MalformedStatementError);
  });
});
