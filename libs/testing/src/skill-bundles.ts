/** Factories for valid skill bundles of each format; tests change one thing at a time from these. */
import { randomBytes, type KeyObject } from 'node:crypto';
import { stringify } from 'yaml';
import { sha256Hex, writeBundle, type BundleInputFile } from '@skillhub/bundle';
import { kazmaChecksum, kazmaSignature, PUBLISHER_SIGNATURE_FILE, signPublisherFiles } from '@skillhub/signing';

export const uniqueName = (prefix = 'skill'): string => `${prefix}-${randomBytes(4).toString('hex')}`;

export interface KazmaSkillOptions {
  name?: string;
  version?: string;
  author?: string;
  manifest?: Record<string, unknown>;
  code?: string;
  extraFiles?: BundleInputFile[];
  /**
   * Sign as Kazma's `hub sign` does: checksum of the entry point, HMAC of it with `secret`.
   * `checksumOf` signs other bytes than the shipped code (a tampered entry point).
   */
  sign?: { secret: string; checksumOf?: string | Buffer };
  /** Sign every file with this publisher key (`skillhub sign --key`), after the Kazma signature. */
  publisherKey?: KeyObject;
}

const DEFAULT_CODE = 'class WeatherSkill:\n    def run(self, city):\n        return city\n';

export function kazmaManifest(o: KazmaSkillOptions = {}): Record<string, unknown> {
  return {
    name: o.name ?? uniqueName('weather'),
    version: o.version ?? '1.0.0',
    description: 'Reports the current weather for a city using a public API.',
    author: o.author ?? 'Acme Labs',
    license: 'MIT',
    category: 'utilities',
    capabilities: ['weather'],
    permissions: ['network_outbound'],
    entry_point: 'weather_skill:WeatherSkill',
    tags: ['weather', 'forecast'],
    tools: { get_weather: { description: 'Current weather for a city', category: 'read' } },
    ...o.manifest,
  };
}

export function kazmaBundle(o: KazmaSkillOptions = {}): Buffer {
  const code = o.code ?? DEFAULT_CODE;
  const manifest = kazmaManifest(o);
  if (o.sign) {
    const checksum = kazmaChecksum(Buffer.from(o.sign.checksumOf ?? code));
    Object.assign(manifest, { checksum, signature: kazmaSignature(checksum, o.sign.secret) });
  }
  const files = [
    { path: 'skill_manifest.yaml', content: Buffer.from(stringify(manifest)) },
    { path: 'weather_skill.py', content: Buffer.from(code) },
    ...(o.extraFiles ?? []).map((f) => ({ ...f, content: Buffer.from(f.content) })),
  ];
  const signature = o.publisherKey
    ? [
        {
          path: PUBLISHER_SIGNATURE_FILE,
          content: signPublisherFiles(
            `${String(manifest.author)}/${String(manifest.name)}@${String(manifest.version)}`,
            files.map((f) => ({ path: f.path, sha256: sha256Hex(f.content) })),
            o.publisherKey,
          ),
        },
      ]
    : [];
  return writeBundle([...files, ...signature], { rootFolder: String(manifest.name) });
}

export function swarmkitSkill(o: { id?: string; version?: string } = {}): Record<string, unknown> {
  return {
    apiVersion: 'swarmkit/v1',
    kind: 'Skill',
    metadata: {
      id: o.id ?? uniqueName('search'),
      name: 'Web search',
      description: 'Searches the web through an MCP server.',
    },
    category: 'capability',
    implementation: { type: 'mcp_tool', server: 'search', tool: 'web_search' },
    provenance: { authored_by: 'human', version: o.version ?? '1.0.0' },
  };
}

export function swarmkitBundle(o: { id?: string; version?: string; skill?: Record<string, unknown> } = {}): Buffer {
  const skill = o.skill ?? swarmkitSkill(o);
  const id = String((skill.metadata as { id: string }).id);
  return writeBundle(
    [
      { path: 'skill.yaml', content: stringify(skill) },
      {
        path: 'workspace.yaml',
        content: stringify({
          mcp_servers: [{ id: 'search', transport: 'stdio', command: ['npx', '-y', '@acme/search-mcp@1.2.3'] }],
        }),
      },
    ],
    { rootFolder: id },
  );
}

export function agentSkillBundle(o: { name?: string; description?: string; body?: string } = {}): Buffer {
  const name = o.name ?? uniqueName('pdf-tools');
  const md = `---\nname: ${name}\ndescription: ${o.description ?? 'Extracts text and tables from PDF files.'}\nlicense: Apache-2.0\n---\n\n${o.body ?? '# PDF tools\n\nUse scripts/extract.py to read a PDF.\n'}`;
  return writeBundle(
    [
      { path: 'SKILL.md', content: md },
      { path: 'scripts/extract.py', content: 'print("extract")\n' },
    ],
    { rootFolder: name },
  );
}
