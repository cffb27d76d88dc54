/**
 * npm and PyPI answers for tests, shaped like the real ones (fields trimmed to those that matter
 * plus enough of the rest to be recognisable). Digests are derived from the package name and
 * version, so each is stable and distinct.
 */
import { createHash } from 'node:crypto';
import { normalizePypiName } from '@skillhub/skill-formats';

export interface NpmDist {
  integrity?: string;
  shasum: string;
  tarball: string;
  fileCount?: number;
  unpackedSize?: number;
}

/** `GET /<name>/<version>`: the version's package.json as published, plus registry fields. */
export interface NpmVersionDocument {
  _id: string;
  name: string;
  version: string;
  description?: string;
  license?: string;
  mcpName?: string;
  repository?: string | { type: string; url: string; directory?: string };
  deprecated?: string;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  dist: NpmDist;
  _npmUser?: { name: string; email: string };
  [field: string]: unknown;
}

/** What npm keeps of a package whose every version was unpublished. */
export interface NpmUnpublished {
  time: string;
  versions: string[];
  name: string;
  tags: Record<string, string>;
  maintainers: Array<{ name: string; email: string }>;
}

/** `GET /<name>`: the packument. */
export interface NpmPackument {
  _id: string;
  name: string;
  'dist-tags'?: Record<string, string>;
  versions?: Record<string, NpmVersionDocument>;
  /** `created`, `modified`, one entry per version ever published, and `unpublished` once all are gone. */
  time: { [key: string]: string | NpmUnpublished };
  [field: string]: unknown;
}

export interface PypiFile {
  filename: string;
  packagetype: 'sdist' | 'bdist_wheel';
  python_version: string;
  digests: { blake2b_256: string; md5: string; sha256: string };
  md5_digest: string;
  size: number;
  upload_time_iso_8601: string;
  url: string;
  requires_python: string | null;
  yanked: boolean;
  yanked_reason: string | null;
  [field: string]: unknown;
}

export interface PypiInfo {
  name: string;
  version: string;
  summary: string;
  description: string;
  description_content_type: string;
  classifiers: string[];
  home_page: string | null;
  project_urls: Record<string, string> | null;
  requires_python: string | null;
  yanked: boolean;
  yanked_reason: string | null;
  [field: string]: unknown;
}

/** One release, as `GET /pypi/<name>/<version>/json` returns it (less `last_serial` and `vulnerabilities`). */
export interface PypiRelease {
  info: PypiInfo;
  urls: PypiFile[];
}

/** A project: `GET /pypi/<name>/json` describes `latest` and lists every release's files. */
export interface PypiProject {
  /** PEP 503 normalized: the only spelling the fake answers to. */
  name: string;
  latest: string;
  lastSerial: number;
  releases: Record<string, PypiRelease>;
}

export interface RegistryFixtures {
  npm: NpmPackument[];
  pypi: PypiProject[];
  /** npm tarballs by request path (`/<name>/-/<file>.tgz`); a `dist.tarball` that is a path is served from here. */
  tarballs?: Record<string, Buffer>;
  /** PyPI files by request path (`/files/<file>.whl`), listed by the simple index where a release's `url` names them. */
  wheels?: Record<string, Buffer>;
}

const digest = (algorithm: string, text: string, encoding: 'hex' | 'base64'): string =>
  createHash(algorithm).update(text).digest(encoding);

/** The SRI `dist.integrity` the fixture package `name@version` has. */
export const npmIntegrity = (name: string, version: string): string =>
  `sha512-${digest('sha512', `${name}@${version}`, 'base64')}`;

/** The sha256 (hex) of a fixture PyPI file. */
export const pypiFileSha256 = (filename: string): string => digest('sha256', filename, 'hex');

const MAINTAINER = { name: 'fixture-maintainer', email: 'maintainer@example.com' };

export function npmVersion(
  name: string,
  version: string,
  fields: Partial<NpmVersionDocument> & { withoutIntegrity?: boolean } = {},
): NpmVersionDocument {
  const { withoutIntegrity, ...rest } = fields;
  const basename = name.slice(name.indexOf('/') + 1);
  return {
    _id: `${name}@${version}`,
    name,
    version,
    description: `${basename}: an MCP server`,
    license: 'MIT',
    bin: { [basename]: 'dist/index.js' },
    dependencies: { '@modelcontextprotocol/sdk': '^1.17.0' },
    dist: {
      ...(withoutIntegrity ? {} : { integrity: npmIntegrity(name, version) }),
      shasum: digest('sha1', `${name}@${version}`, 'hex'),
      tarball: `https://registry.npmjs.org/${name}/-/${basename}-${version}.tgz`,
      fileCount: 12,
      unpackedSize: 48_213,
    },
    _npmUser: MAINTAINER,
    ...rest,
  };
}

/** A packument of `versions` (the last is `latest`), each published a day after the one before. */
export function npmPackument(versions: NpmVersionDocument[], extraTimes: Record<string, string> = {}): NpmPackument {
  const name = versions[0]?.name ?? '';
  const day = (index: number): string => new Date(Date.UTC(2025, 0, 1 + index)).toISOString();
  return {
    _id: name,
    _rev: `${versions.length}-${digest('md5', name, 'hex')}`,
    name,
    description: versions.at(-1)?.description,
    'dist-tags': { latest: versions.at(-1)?.version ?? '' },
    versions: Object.fromEntries(versions.map((doc) => [doc.version, doc])),
    time: {
      created: day(0),
      modified: day(versions.length),
      ...Object.fromEntries(versions.map((doc, index) => [doc.version, day(index)])),
      ...extraTimes,
    },
    maintainers: [MAINTAINER],
    license: 'MIT',
    readme: `# ${name}`,
  };
}

export function pypiFile(
  name: string,
  version: string,
  packagetype: PypiFile['packagetype'],
  yanked = false,
): PypiFile {
  const stem = `${normalizePypiName(name).replace(/-/g, '_')}-${version}`;
  const filename = packagetype === 'sdist' ? `${stem}.tar.gz` : `${stem}-py3-none-any.whl`;
  return {
    filename,
    packagetype,
    python_version: packagetype === 'sdist' ? 'source' : 'py3',
    digests: {
      blake2b_256: digest('sha256', `b2:${filename}`, 'hex'),
      md5: digest('md5', filename, 'hex'),
      sha256: pypiFileSha256(filename),
    },
    md5_digest: digest('md5', filename, 'hex'),
    size: 23_456,
    upload_time_iso_8601: '2025-03-04T10:11:12.123456Z',
    url: `https://files.pythonhosted.org/packages/ab/cd/${filename}`,
    requires_python: '>=3.10',
    yanked,
    yanked_reason: null,
  };
}

export function pypiRelease(
  name: string,
  version: string,
  info: Partial<PypiInfo> = {},
  urls: PypiFile[] = [pypiFile(name, version, 'bdist_wheel'), pypiFile(name, version, 'sdist')],
): PypiRelease {
  return {
    info: {
      name,
      version,
      summary: `${name}: an MCP server`,
      description: `# ${name}\n\nAn MCP server.\n`,
      description_content_type: 'text/markdown',
      classifiers: ['Programming Language :: Python :: 3', 'License :: OSI Approved :: Apache Software License'],
      home_page: null,
      project_urls: null,
      requires_python: '>=3.10',
      package_url: `https://pypi.org/project/${name}/`,
      release_url: `https://pypi.org/project/${name}/${version}/`,
      yanked: false,
      yanked_reason: null,
      ...info,
    },
    urls,
  };
}

export function pypiProject(releases: PypiRelease[], lastSerial = 27_000_000): PypiProject {
  const latest = releases.at(-1) as PypiRelease;
  return {
    name: normalizePypiName(latest.info.name),
    latest: latest.info.version,
    lastSerial,
    releases: Object.fromEntries(releases.map((release) => [release.info.version, release])),
  };
}

const QDRANT_README = [
  '# mcp-server-qdrant: A Qdrant MCP server',
  '',
  '<!-- mcp-name: io.github.qdrant/mcp-server-qdrant -->',
  '',
  'Run it with `uvx mcp-server-qdrant`.',
].join('\n');

/** The fixtures' packages, by what tests use them for. */
export const FIXTURE_PACKAGES = {
  /** npm, scoped, with `mcpName` and a monorepo `repository`. */
  filesystem: { name: '@modelcontextprotocol/server-filesystem', version: '2025.8.21', older: '2025.7.1' },
  /** npm, scoped: 1.2.3 points back at `acme/weather` by `mcpName`; 1.0.0 is deprecated. */
  weather: { name: '@acme/weather-mcp', version: '1.2.3', deprecatedVersion: '1.0.0', mcpName: 'acme/weather' },
  /** npm, unscoped, repository shorthand `github:…`; not on PyPI. */
  kubernetes: { name: 'mcp-server-kubernetes', version: '2.4.0' },
  /** npm, published before `dist.integrity` existed: only a SHA-1 `shasum`. */
  legacy: { name: 'legacy-mcp-tool', version: '0.3.0' },
  /** npm: every version unpublished (200 with `time.unpublished`). */
  unpublished: { name: 'mcp-server-gone', version: '1.1.0', unpublishedAt: '2025-02-03T04:05:06.789Z' },
  /** npm: 2.0.0 published, 1.9.0 unpublished by itself. */
  notes: { name: '@acme/notes-mcp', version: '2.0.0', unpublishedVersion: '1.9.0' },
  /** npm: replaced by `0.0.1-security`; 1.0.5 was the malicious version. */
  placeholder: { name: 'mcp-server-evil', removedVersion: '1.0.5' },
  /** SwarmKit's documentation names these; none is on npm (or PyPI). */
  swarmkitMissing: ['@anthropic/brave-search-mcp', '@anthropic/slack-mcp', '@anthropic/gdrive-mcp'],
  /** PyPI only, though SwarmKit lists it as an npm package; sdist + wheel; `mcp-name:` in the README. */
  qdrant: {
    name: 'mcp-server-qdrant',
    version: '0.7.1',
    latest: '0.8.0',
    mcpName: 'io.github.qdrant/mcp-server-qdrant',
  },
  /** PyPI, wheels only. */
  fetch: { name: 'mcp-server-fetch', version: '2025.4.7' },
  /** PyPI `Acme_MCP.Tools`: 1.0.0 yanked, 1.0.1 fine. */
  acmeTools: {
    name: 'acme-mcp-tools',
    writtenAs: 'Acme_MCP.Tools',
    yanked: '1.0.0',
    version: '1.0.1',
    yankedReason: 'broken build, use 1.0.1',
  },
  /** PyPI, marked `Development Status :: 7 - Inactive`. */
  inactive: { name: 'old-mcp-helper', version: '0.2.0' },
} as const;

const P = FIXTURE_PACKAGES;

export const REGISTRY_FIXTURES: RegistryFixtures = {
  npm: [
    npmPackument([
      npmVersion(P.filesystem.name, P.filesystem.older, {
        repository: {
          type: 'git',
          url: 'git+https://github.com/modelcontextprotocol/servers.git',
          directory: 'src/filesystem',
        },
      }),
      npmVersion(P.filesystem.name, P.filesystem.version, {
        mcpName: 'io.github.modelcontextprotocol/server-filesystem',
        repository: {
          type: 'git',
          url: 'git+https://github.com/modelcontextprotocol/servers.git',
          directory: 'src/filesystem',
        },
      }),
    ]),
    npmPackument([
      npmVersion(P.weather.name, P.weather.deprecatedVersion, {
        deprecated: '1.0.0 logs API keys; upgrade to 1.2.3',
        repository: { type: 'git', url: 'git+https://github.com/acme/weather-mcp.git' },
      }),
      npmVersion(P.weather.name, P.weather.version, {
        mcpName: P.weather.mcpName,
        repository: { type: 'git', url: 'git+https://github.com/acme/weather-mcp.git' },
      }),
    ]),
    npmPackument([
      npmVersion(P.kubernetes.name, P.kubernetes.version, { repository: 'github:Flux159/mcp-server-kubernetes' }),
    ]),
    npmPackument([npmVersion(P.legacy.name, P.legacy.version, { withoutIntegrity: true })]),
    {
      _id: P.unpublished.name,
      name: P.unpublished.name,
      time: {
        created: '2024-11-20T08:00:00.000Z',
        modified: P.unpublished.unpublishedAt,
        unpublished: {
          time: P.unpublished.unpublishedAt,
          versions: ['1.0.0', P.unpublished.version],
          name: P.unpublished.name,
          tags: { latest: P.unpublished.version },
          maintainers: [MAINTAINER],
        },
      },
    },
    npmPackument([npmVersion(P.notes.name, P.notes.version)], {
      [P.notes.unpublishedVersion]: '2024-12-24T00:00:00.000Z',
    }),
    npmPackument(
      [
        npmVersion(P.placeholder.name, '0.0.1-security', {
          description: 'security holding package',
          repository: 'npm/security-holder',
          bin: undefined,
          dependencies: undefined,
        }),
      ],
      { '1.0.4': '2024-06-01T00:00:00.000Z', [P.placeholder.removedVersion]: '2024-06-02T00:00:00.000Z' },
    ),
  ],
  pypi: [
    pypiProject([
      pypiRelease(P.qdrant.name, P.qdrant.version, {
        description: QDRANT_README,
        project_urls: { Repository: 'https://github.com/qdrant/mcp-server-qdrant' },
      }),
      pypiRelease(P.qdrant.name, P.qdrant.latest, {
        description: QDRANT_README,
        project_urls: { Repository: 'https://github.com/qdrant/mcp-server-qdrant' },
      }),
    ]),
    pypiProject([
      pypiRelease(
        P.fetch.name,
        P.fetch.version,
        {
          project_urls: { Source: 'https://github.com/modelcontextprotocol/servers/tree/main/src/fetch' },
        },
        [pypiFile(P.fetch.name, P.fetch.version, 'bdist_wheel')],
      ),
    ]),
    pypiProject([
      pypiRelease(
        P.acmeTools.writtenAs,
        P.acmeTools.yanked,
        { yanked: true, yanked_reason: P.acmeTools.yankedReason },
        [pypiFile(P.acmeTools.writtenAs, P.acmeTools.yanked, 'sdist', true)],
      ),
      pypiRelease(P.acmeTools.writtenAs, P.acmeTools.version, {
        description: 'Tools.\n\nmcp-name: acme/tools\n',
        home_page: 'https://github.com/Acme/acme-mcp-tools',
      }),
    ]),
    pypiProject([
      pypiRelease(P.inactive.name, P.inactive.version, {
        classifiers: ['Development Status :: 7 - Inactive', 'Programming Language :: Python :: 3'],
      }),
    ]),
  ],
};
