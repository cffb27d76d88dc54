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
/** PEP 753's labels of a project's source repository, in its normal form (see `normalLabel`). */
const SOURCE_LABELS = new Set(['source', 'repository', 'sourcecode', 'github']);

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
    return {
      version,
      withdrawn: yanked(info, files),
      deprecated: inactive(info),
      integrity: fileDigest(files),
      repositoryUrls: projectUrls(info),
      // PyPI serves a release's attestations (PEP 740) from its Integrity API, one file at a time,
      // never in the JSON API read here; until the prober asks it, none is known.
      attestation: null,
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

/** Every link of `project_urls`, those labelled as the source first, then the legacy `home_page`. */
function projectUrls(info: JsonRecord | null): string[] {
  const links = Object.entries(recordField(info, 'project_urls') ?? {}).flatMap(([label, link]) =>
    typeof link === 'string' && link.length > 0 ? [{ label, link }] : [],
  );
  const isSource = ({ label }: { label: string }): boolean => SOURCE_LABELS.has(normalLabel(label));
  const homePage = stringField(info, 'home_page');
  return [...links.filter(isSource), ...links.filter((link) => !isSource(link))]
    .map(({ link }) => link)
    .concat(homePage ? [homePage] : []);
}

/** PEP 753 compares labels in lower case without ASCII punctuation or whitespace: `Source Code` is `sourcecode`. */
const normalLabel = (label: string): string => label.replace(/[\s!-/:-@[-`{-~]/g, '').toLowerCase();
