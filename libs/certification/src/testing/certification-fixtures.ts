/** Test support: certification inputs built as the worker builds them, from files held in memory. */
import { readBundle, sha256Hex, writeBundle, type Bundle, type BundleFile } from '@skillhub/bundle';
import { loadCodeAnalyzer, type CodeAnalyzer } from '@skillhub/code-analysis';
import { kazmaChecksum, kazmaSignature, type TrustedKey } from '@skillhub/signing';
import { parseSkill } from '@skillhub/skill-formats';
import { stringify } from 'yaml';
import {
  certificationInputFor,
  type CertificationInput,
  type PopularName,
  type ProbeResult,
} from '../certification-input';
import type { DetonationResult } from '../detonation-result';
import type { LiveServerProbe, LiveTool } from '../live-server';
import { certify } from '../certify';
import type { Finding } from '../finding';
import type { CertificationVerdict } from '../report';

export const NOW = new Date('2025-06-01T12:00:00.000Z');
export const NAMESPACE = 'acme';

export type Files = Readonly<Record<string, string | Buffer>>;

// The grammars load asynchronously, once; a spec importing these fixtures gets them loaded before
// its first test (a hook registered while the spec file is being collected applies to that file).
let analyzer: CodeAnalyzer | null = null;
beforeAll(async () => {
  analyzer = await loadCodeAnalyzer();
});

function fixtureAnalyzer(): CodeAnalyzer {
  if (!analyzer) throw new Error('certification fixtures are used before their beforeAll hook ran');
  return analyzer;
}

export interface InputOptions {
  /** Folder the files sit under in the archive (an Agent Skill's must equal its name). */
  rootFolder?: string;
  namespace?: string;
  ownerMatches?: boolean;
  /** The publish request's version (Agent Skills carry none). */
  version?: string;
  probes?: ProbeResult[];
  liveServers?: LiveServerProbe[];
  kazmaSecrets?: string[];
  publisherKeys?: TrustedKey[];
  popularNames?: PopularName[];
  detonation?: DetonationResult;
}

/** A real bundle (written, then read back by the bundle reader) and its parse, as the worker makes them. */
export function certificationInput(files: Files, options: InputOptions = {}): CertificationInput {
  const entries = Object.entries(files).map(([path, content]) => ({ path, content }));
  const bundle = readBundle(writeBundle(entries, { rootFolder: options.rootFolder ?? null }));
  const namespace = options.namespace ?? NAMESPACE;
  const parsed = parseSkill(bundle.files, {
    namespace,
    version: options.version ?? '1.0.0',
    folderName: bundle.rootFolder,
  });
  const { probes, liveServers, kazmaSecrets, publisherKeys, popularNames, detonation } = options;
  return certificationInputFor(bundle, parsed, {
    namespace: { slug: namespace, ownerMatches: options.ownerMatches ?? true },
    probes,
    liveServers,
    kazmaSecrets,
    publisherKeys,
    popularNames,
    detonation,
    analyzer: fixtureAnalyzer(),
    policyVersion: 1,
    now: NOW,
  });
}

export const certifyFiles = (files: Files, options: InputOptions = {}): CertificationVerdict =>
  certify(certificationInput(files, options));

/** A bundle made by hand, for what the bundle reader would refuse (the certifier re-checks it). */
export function handmadeBundle(files: Files): Bundle {
  const bundleFiles: BundleFile[] = Object.entries(files).map(([path, text]) => {
    const content = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
    return { path, size: content.length, sha256: sha256Hex(content), mode: 0o644, content };
  });
  const size = bundleFiles.reduce((sum, file) => sum + file.size, 0);
  return { sha256: sha256Hex('handmade'), size, uncompressedSize: size, rootFolder: null, files: bundleFiles };
}

/** 1-based number of the first line of `text` that contains `needle`. */
export function lineIn(text: string | Buffer, needle: string): number {
  const index = String(text)
    .split('\n')
    .findIndex((line) => line.includes(needle));
  if (index === -1) throw new Error(`no line contains ${JSON.stringify(needle)}`);
  return index + 1;
}

export const findingsOf = (report: CertificationVerdict, rule: string): Finding[] =>
  report.findings.filter((finding) => finding.rule === rule);

/** Where and how bad a finding is, for `toEqual` against an expectation. */
export const placeOf = ({
  rule,
  severity,
  file,
  line,
}: Finding): Pick<Finding, 'rule' | 'severity' | 'file' | 'line'> => ({
  rule,
  severity,
  file,
  line,
});

/** A probe answer as the prober gives it for a found, exact, back-pointing release. */
export function probe(overrides: Partial<ProbeResult> & Pick<ProbeResult, 'registry' | 'name'>): ProbeResult {
  const version = overrides.version ?? '1.0.0';
  return {
    version,
    pinnedByHub: false,
    outcome: 'found',
    deprecated: null,
    integrity: `sha512-${Buffer.from(`${overrides.name}@${version}`).toString('base64')}`,
    provenance: { repository: null, attestation: null },
    attempts: 1,
    detail: `${overrides.registry} package ${overrides.name}@${version} is published — https://registry.example/${overrides.name}`,
    fixHint: '',
    ...overrides,
  };
}

// --- Kazma -------------------------------------------------------------------------------------

export const KAZMA_ENTRY = 'weather_skill.py';
export const KAZMA_CODE = [
  '"""Weather report skill: asks the weather MCP server for a city\'s forecast."""',
  '',
  '',
  'class WeatherSkill:',
  '    def __init__(self, context):',
  '        self.context = context',
  '',
  '    async def get_forecast(self, city: str, days: int = 3) -> dict:',
  '        return await self.context.mcp("weather").call("forecast", {"city": city, "days": days})',
  '',
].join('\n');

export const KAZMA_PACKAGE = { registry: 'npm', name: '@acme/weather-mcp', version: '2.1.0' } as const;

/**
 * A Kazma skill that passes everything but signing. `manifest` replaces or adds fields (added
 * ones come last); an `undefined` value removes one.
 */
export function kazmaManifest(manifest: Record<string, unknown> = {}): string {
  const fields: Record<string, unknown> = {
    name: 'weather-report',
    version: '1.2.0',
    description: 'Fetches current weather and multi-day forecasts for a city through an MCP server.',
    author: 'Acme',
    license: 'MIT',
    permissions: ['network_outbound'],
    entry_point: 'weather_skill:WeatherSkill',
    repository: 'https://github.com/acme/weather-report',
    tools: {
      get_forecast: { description: 'Returns the forecast for a city for the next few days.', category: 'read' },
    },
    mcp_servers: [{ name: 'weather', transport: 'stdio', command: ['npx', '-y', `${KAZMA_PACKAGE.name}@2.1.0`] }],
    ...manifest,
  };
  return stringify(Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)));
}

export function kazmaFiles(o: { manifest?: Record<string, unknown>; code?: string; extra?: Files } = {}): Files {
  return { 'skill_manifest.yaml': kazmaManifest(o.manifest), [KAZMA_ENTRY]: o.code ?? KAZMA_CODE, ...o.extra };
}

/** The namespace's Kazma secret `signedKazmaFiles` signs with. */
export const KAZMA_SECRET = 'acme-kazma-secret-for-tests';

/** kazmaFiles signed as `kazma hub sign` signs them (checksum of the entry point, HMAC of the checksum). */
export function signedKazmaFiles(o: { manifest?: Record<string, unknown>; code?: string; extra?: Files } = {}): Files {
  const checksum = kazmaChecksum(Buffer.from(o.code ?? KAZMA_CODE, 'utf8'));
  const signature = kazmaSignature(checksum, KAZMA_SECRET);
  return kazmaFiles({ ...o, manifest: { ...o.manifest, checksum, signature } });
}

export const kazmaProbes = (overrides: Partial<ProbeResult> = {}): ProbeResult[] => [
  probe({ ...KAZMA_PACKAGE, ...overrides }),
];

/** What a server answered when the worker started it in the sandbox and listed its tools. */
export const listedServer = (server: string, tools: LiveTool[]): LiveServerProbe => ({
  server,
  outcome: 'listed',
  detail: '',
  tools,
  prompts: [],
  resources: [],
});

/** The Kazma fixture's weather server, as listed live. */
export const kazmaLiveServers = (): LiveServerProbe[] => [
  listedServer('weather', [
    {
      name: 'forecast',
      description: 'Forecast for a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    },
  ]),
];

// --- SwarmKit ----------------------------------------------------------------------------------

export function swarmkitFiles(o: { command?: string[]; license?: boolean } = {}): Files {
  const skill = {
    apiVersion: 'swarmkit/v1',
    kind: 'Skill',
    metadata: {
      id: 'web-search',
      name: 'Web search',
      description: 'Searches the web through an MCP server and returns the top results.',
    },
    category: 'capability',
    implementation: { type: 'mcp_tool', server: 'search', tool: 'web_search' },
    iam: { required_scopes: ['web:search'] },
    provenance: { authored_by: 'human', version: '1.0.0' },
  };
  const workspace = {
    apiVersion: 'swarmkit/v1',
    kind: 'Workspace',
    mcp_servers: [{ id: 'search', transport: 'stdio', command: o.command ?? ['npx', '-y', '@acme/search-mcp@1.2.3'] }],
  };
  return {
    'skill.yaml': stringify(skill),
    'workspace.yaml': stringify(workspace),
    ...(o.license === false ? {} : { LICENSE: 'MIT License\n\nCopyright (c) 2025 Acme\n' }),
  };
}

export const SWARMKIT_PACKAGE = { registry: 'npm', name: '@acme/search-mcp', version: '1.2.3' } as const;

// --- Agent Skill -------------------------------------------------------------------------------

export const AGENT_SKILL_FOLDER = 'pdf-tools';

/** SKILL.md's body starts on line 6. */
export function agentSkillFiles(o: { body?: string; extra?: Files } = {}): Files {
  const skillMd = [
    '---',
    `name: ${AGENT_SKILL_FOLDER}`,
    'description: Extracts text and tables from PDF files. Use when the user asks about the content of a PDF.',
    'license: Apache-2.0',
    '---',
    o.body ?? '# PDF tools\n\n1. Run `scripts/extract.py <file.pdf>` to get the text of every page.\n',
  ].join('\n');
  return {
    'SKILL.md': skillMd,
    'scripts/extract.py':
      '"""Prints the text of every page of a PDF."""\nimport sys\n\nimport pdfplumber\n\nwith pdfplumber.open(sys.argv[1]) as pdf:\n    for page in pdf.pages:\n        print(page.extract_text() or "")\n',
    ...o.extra,
  };
}
