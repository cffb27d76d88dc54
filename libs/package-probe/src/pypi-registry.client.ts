/** PyPI's names, URLs and documents: the JSON API (`GET /pypi/<name>/json`, `GET /pypi/<name>/<version>/json`). */
import { normalizePypiName } from '@skillhub/skill-formats';
import { field, isRecord, recordField, recordsField, stringField, type JsonRecord } from './json-field.reader';
import { escapeSegment, type RegistryBase } from './registry-base';
import type { PackageFacts, RegistryClient, ReleaseFacts } from './registry-client';

/** PEP 508 names; the length caps the regex's input. */
const PYPI_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const PYPI_NAME_MAX = 200;
/** PEP 440's version pattern (with an optional `v`), anchored: only these name one release. */
const PEP440_VERSION =
  /^v?(?:\d+!)?\d+(?:\.\d+)*(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?\d*)?(?:-\d+|[-_.]?(?:post|rev|r)[-_.]?\d*)?(?:[-_.]?dev[-_.]?\d*)?(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?$/i;
const VERSION_MAX = 100;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** PyPI's nearest thing to npm's `deprecated`. */
const INACTIVE_CLASSIFIER = 'Development Status :: 7 - Inactive';
/** The MCP registry's back-reference, written anywhere in the README (often inside an HTML comment). */
const MCP_NAME_MARKER = 'mcp-name:';
const MCP_NAME_VALUE = /^[ \t]*([A-Za-z0-9][\w.~-]*\/[\w.~-]+)/;
/** How much follows a marker that can hold its value; the regex never sees more. */
const MCP_NAME_WINDOW = 300;
const MCP_NAME_MAX_MARKERS = 20;

export class PypiRegistryClient implements RegistryClient {
  readonly registry = 'pypi';
  readonly label = 'PyPI';
  readonly aLabel = 'a PyPI';

  constructor(private readonly base: RegistryBase) {}

  canonicalName(name: string): string | null {
    return name.length <= PYPI_NAME_MAX && PYPI_NAME.test(name) ? normalizePypiName(name) : null;
  }

  isExactVersion(version: string): boolean {
    return version.length <= VERSION_MAX && PEP440_VERSION.test(version);
  }

  packageUrl(name: string): string {
    return this.base.url(['pypi', escapeSegment(name), 'json']);
  }

  releaseUrl(name: string, version: string): string {
    return this.base.url(['pypi', escapeSegment(name), escapeSegment(version), 'json']);
  }

  /** The project document describes its latest release with the same `info` and `urls` as a release document. */
  readPackage(document: unknown): PackageFacts | null {
    const latest = this.readRelease(document);
    return latest ? { unpublished: null, latest, removedVersions: new Set() } : null;
  }

  readRelease(document: unknown): ReleaseFacts | null {
    if (!isRecord(document)) return null;
    const info = recordField(document, 'info');
    const version = stringField(info, 'version');
    if (version === null) return null;
    const files = recordsField(document, 'urls');
    const mcpName = findMcpName(stringField(info, 'description') ?? '');
    return {
      version,
      withdrawn: yanked(info, files),
      deprecated: inactive(info),
      integrity: fileDigest(files),
      mcpName: mcpName ? { kind: 'mcp-name', value: mcpName } : null,
      repositoryUrls: projectUrls(info),
    };
  }

  spec(name: string, version: string): string {
    return `${name}==${version}`;
  }

  runCommand(name: string, version: string | null): string {
    return `uvx ${version === null ? name : `${name}@${version}`}`;
  }
}

/** A yanked release (PEP 592), or one whose every file is yanked: pip and uv skip it when resolving. */
function yanked(info: JsonRecord | null, files: readonly JsonRecord[]): ReleaseFacts['withdrawn'] {
  const reasonOf = (record: JsonRecord | null): string =>
    stringField(record, 'yanked_reason')?.trim() || 'no reason given';
  if (field(info, 'yanked') === true) return { outcome: 'yanked', reason: reasonOf(info) };
  if (files.length > 0 && files.every((file) => field(file, 'yanked') === true)) {
    return { outcome: 'yanked', reason: reasonOf(files[0] ?? null) };
  }
  return null;
}

function inactive(info: JsonRecord | null): string | null {
  const classifiers = field(info, 'classifiers');
  return Array.isArray(classifiers) && classifiers.includes(INACTIVE_CLASSIFIER)
    ? `marked inactive (${INACTIVE_CLASSIFIER})`
    : null;
}

/** The sha256 of the sdist, else of the first wheel, preferring files that are not yanked. */
function fileDigest(files: readonly JsonRecord[]): string | null {
  const usable = files.filter((file) => field(file, 'yanked') !== true);
  const candidates = usable.length > 0 ? usable : files;
  const file =
    candidates.find((candidate) => field(candidate, 'packagetype') === 'sdist') ??
    candidates.find((candidate) => field(candidate, 'packagetype') === 'bdist_wheel');
  const sha256 = stringField(recordField(file ?? null, 'digests'), 'sha256');
  return sha256 !== null && SHA256_HEX.test(sha256) ? `sha256-${sha256}` : null;
}

/** The first well-formed `mcp-name: namespace/name` in the README, scanning only a short window per marker. */
export function findMcpName(description: string): string | null {
  let from = 0;
  for (let markers = 0; markers < MCP_NAME_MAX_MARKERS; markers++) {
    const at = description.indexOf(MCP_NAME_MARKER, from);
    if (at === -1) return null;
    from = at + MCP_NAME_MARKER.length;
    const value = MCP_NAME_VALUE.exec(description.slice(from, from + MCP_NAME_WINDOW));
    if (value) return value[1] as string;
  }
  return null;
}

/** Every link of `project_urls` (Source, Repository, Homepage…) and the legacy `home_page`. */
function projectUrls(info: JsonRecord | null): string[] {
  const links = Object.values(recordField(info, 'project_urls') ?? {});
  const homePage = stringField(info, 'home_page');
  return [...links, homePage].filter((link): link is string => typeof link === 'string' && link.length > 0);
}
