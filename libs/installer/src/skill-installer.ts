/**
 * Installs a skill the hub certified, and nothing else: resolves the highest certified
 * version that matches the range, downloads it, and verifies it offline (certificate,
 * bundle and file digests, log inclusion and consistency with the last checkpoint,
 * revocations, expiry) before a byte is written. Skills land where a Kazma host's
 * SkillLoader reads them, `<skills>/<name>`; a Kazma manifest is re-signed with the local
 * KAZMA_SECRET, and every skill gets Kazma's `.kazma-install.json`, the certificate and a
 * record of every file's digest beside it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as semver from 'semver';
import { readBundle, sha256Hex, type BundleFile } from '@skillhub/bundle';
import { parseSkill, type NormalizedSkill } from '@skillhub/skill-formats';
import {
  decodeStatement,
  kazmaChecksum,
  kazmaSignature,
  verifyInstallation,
  type CertificateStatement,
  type InstallRefusal,
  type ServedCertificate,
  type TrustedKey,
} from '@skillhub/signing';
import {
  CERTIFICATE_FILE,
  INSTALL_RECORD_FILE,
  KAZMA_INSTALL_META,
  readInstallRecord,
  type InstallRecord,
  type ManifestResign,
} from './install-record';
import { certifiedFilesOf, type InstalledRefusal, verifyInstalledSkill } from './installed-files';
import { ManifestResignError, resignKazmaManifest } from './kazma-manifest-resign';
import { type PinnedKey, toTrustedKeys, TrustState } from './trust-state';

/** The hub calls the installer makes (HubClient satisfies it). */
export interface HubReader {
  baseUrl: string;
  getSkill(
    author: string,
    name: string,
  ): Promise<{ versions: Array<{ version: string; status: string; certification: { status: string } }> }>;
  certificate(author: string, name: string, version: string): Promise<ServedCertificate>;
  downloadBundle(author: string, name: string, version: string): Promise<{ bytes: Buffer }>;
  logEntry(index: number): Promise<{ leaf_data: string }>;
  consistencyProof(first: number, second: number): Promise<{ hashes: string[] }>;
  keys(): Promise<{ keys: PinnedKey[] }>;
  revocations(): Promise<unknown>;
}

export interface InstallOptions {
  /** The skills folder a Kazma host reads (`<KAZMA_USER_HOME>/skills`): one folder per skill name. */
  installDir: string;
  state: TrustState;
  logOrigin: string;
  /** Keys pinned in the runtime config; when empty, the hub's keys are pinned on first use. */
  pinnedKeys: PinnedKey[];
  /**
   * The local KAZMA_SECRET: it re-signs Kazma manifests and signs `.kazma-install.json`. Without
   * it the manifest's signature is removed (the skill loads as unsigned) and a warning says so.
   */
  kazmaSecret?: string;
  now?: () => Date;
}

export type InstallResult =
  | {
      ok: true;
      author: string;
      name: string;
      version: string;
      path: string;
      skill: NormalizedSkill;
      /** The verified certificate: what may run (servers, packages, tool pins) comes from it. */
      statement: CertificateStatement;
      /** Worth telling the user (an unsigned install, say); the install went through. */
      warnings: string[];
    }
  | { ok: false; author: string; name: string; reason: InstallRefusalReason; message: string };

/**
 * Why an install was refused: what the offline verification refused (InstallRefusal), or what the
 * installer itself refused before or after it. `unreachable` and `not-found` are the caller's: the hub
 * did not answer, or holds no such skill.
 */
export type InstallRefusalReason = InstallRefusal | InstalledRefusal | InstallerRefusal;
/** What the installer itself refuses: `unreachable` is the hub not answering (and no installed copy to serve). */
type InstallerRefusal =
  'invalid-name' | 'name-taken' | 'not-found' | 'no-matching-version' | 'uncertified' | 'cannot-resign' | 'unreachable';

/** A skill name as certificates spell it: safe as one path segment. */
const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Half-written installs and replaced ones live here: a dot folder no skill loader reads. */
const STAGING_DIR = '.installing';

export class SkillInstaller {
  constructor(
    private readonly hub: HubReader,
    private readonly options: InstallOptions,
  ) {}

  async install(author: string, name: string, range: string): Promise<InstallResult> {
    const refuse = (reason: InstallRefusalReason, message: string): InstallResult => ({
      ok: false,
      author,
      name,
      reason,
      message,
    });
    if (!SKILL_NAME.test(name)) return refuse('invalid-name', `${JSON.stringify(name)} is not a skill name`);
    // Kazma's loader finds a skill by its name alone, so the folder belongs to one author's skill.
    const target = join(this.options.installDir, name);
    const occupant = occupantOf(target);
    if (occupant !== null && occupant.skill !== `${author}/${name}`) {
      return refuse(
        'name-taken',
        `${target} already holds ${occupant.label}: a Kazma host loads skills by name, so ${author}/${name} cannot be ` +
          'installed beside it; remove that folder first to replace it',
      );
    }

    const listing = await this.hub.getSkill(author, name);
    const inRange = listing.versions
      .filter((v) => v.status !== 'yanked' && semver.satisfies(v.version, range))
      .sort((a, b) => semver.rcompare(a.version, b.version));
    // The highest certified version; failing that, a revoked or expired one, so the refusal
    // names its real reason from the signed evidence instead of "not certified".
    const chosen =
      inRange.find((v) => v.certification.status === 'certified') ??
      inRange.find((v) => v.certification.status === 'revoked' || v.certification.status === 'expired');
    if (inRange.length === 0) {
      // npm's "No matching version found": say which versions there are.
      const listed = listing.versions.filter((v) => v.status !== 'yanked').map((v) => v.version);
      const known = listed.length > 0 ? `; it has ${listed.sort(semver.rcompare).slice(0, 10).join(', ')}` : '';
      return refuse('no-matching-version', `no version of ${author}/${name} matches ${range}${known}`);
    }
    if (!chosen) return refuse('uncertified', `no certified version of ${author}/${name} matches ${range}`);

    const { version } = chosen;
    const certificate = await this.hub.certificate(author, name, version);
    const { bytes } = await this.hub.downloadBundle(author, name, version);
    const { leaf_data: leafData } = await this.hub.logEntry(certificate.log_index);
    const last = this.options.state.checkpoint();
    const proof =
      last && last.treeSize < certificate.checkpoint.tree_size
        ? (await this.hub.consistencyProof(last.treeSize, certificate.checkpoint.tree_size)).hashes
        : null;
    const revocations = await this.hub.revocations();
    const bundle = readBundle(bytes);
    const verdict = verifyInstallation({
      skillRef: `${author}/${name}`,
      version,
      bundle: bytes,
      files: bundle.files,
      certificate,
      leafData,
      trustedKeys: await this.trustedKeys(),
      logOrigin: this.options.logOrigin,
      lastCheckpoint: last,
      consistencyProof: proof,
      revocations: { envelope: revocations, lastSeenIssuedAt: this.options.state.revocationsSeenAt() },
      now: this.options.now?.() ?? new Date(),
    });
    if (!verdict.ok) return refuse(verdict.reason, verdict.message);

    // Parsed from the verified bytes: what the runtime serves is what the certificate covers.
    const { skill } = parseSkill(bundle.files, { namespace: author, version, folderName: bundle.rootFolder });
    if (!skill) return refuse('tampered', `${author}/${name}@${version} no longer parses`);
    const warnings: string[] = [];
    let local: LocalFiles;
    try {
      local = this.localFiles(skill, bundle.files, warnings);
    } catch (err) {
      if (!(err instanceof ManifestResignError)) throw err;
      return refuse('cannot-resign', `${skill.manifestPath}: ${err.message}`);
    }

    const record: InstallRecord = {
      skill: `${author}/${name}`,
      version,
      hub: this.hub.baseUrl,
      files: Object.fromEntries(local.files.map((f) => [f.path, f.sha256])),
      resigned: local.resigned,
    };
    this.write(target, [
      ...local.files,
      { path: INSTALL_RECORD_FILE, content: json(record) },
      { path: KAZMA_INSTALL_META, content: json(this.installMeta(author, name, version, local.files)) },
      // The certificate travels with the skill, so it can be checked again (`skillhub verify`).
      { path: CERTIFICATE_FILE, content: json(certificate.envelope) },
    ]);
    this.options.state.saveCheckpoint(verdict.checkpoint);
    this.options.state.saveRevocations({ issuedAt: verdict.revocationsIssuedAt, envelope: revocations });
    return { ok: true, author, name, version, path: target, skill, statement: verdict.statement, warnings };
  }

  /**
   * For when the hub cannot be reached: the copy installed here before, verified offline as
   * `skillhub verify` does (its certificate by a key pinned before, every file, the newest
   * revocation list seen, its expiry), when its version is in `range`. What it serves is what
   * that certificate covers; its warnings say it came from the installed copy.
   */
  installedCopy(author: string, name: string, range: string): InstallResult {
    const refuse = (reason: InstallRefusalReason, why: string): InstallResult => ({
      ok: false,
      author,
      name,
      reason,
      message: `the hub cannot be reached, and ${why}`,
    });
    const target = join(this.options.installDir, name);
    const keys = this.options.pinnedKeys.length ? this.options.pinnedKeys : this.options.state.keys();
    if (!keys) return refuse('unreachable', 'no hub key was pinned here to verify an installed copy with');
    if (!SKILL_NAME.test(name) || !existsSync(target)) {
      return refuse('unreachable', `${author}/${name} was never installed here`);
    }
    const verdict = verifyInstalledSkill(target, {
      keys: toTrustedKeys(keys),
      state: this.options.state,
      hubRevocations: null,
      kazmaSecret: this.options.kazmaSecret,
      now: this.options.now?.(),
    });
    if (!verdict.ok) return refuse(verdict.reason, `the installed copy is refused: ${verdict.message}`);
    const { statement } = verdict;
    const installed = `${statement.skill}@${statement.version}`;
    if (statement.skill !== `${author}/${name}`) {
      return refuse('wrong-skill', `${target} holds ${installed}, not ${author}/${name}`);
    }
    if (verdict.revocations.source === 'none') {
      // Fail closed: with no list ever seen, nothing says the copy was not revoked.
      return refuse('stale-revocations', `no revocation list was seen before to check ${installed} against`);
    }
    if (!semver.satisfies(statement.version, range)) {
      return refuse('uncertified', `the installed ${installed} does not match ${range}`);
    }
    const { skill } = parseSkill(certifiedFilesOf(target), {
      namespace: author,
      version: statement.version,
      folderName: name,
    });
    if (!skill) return refuse('tampered', `the installed ${installed} no longer parses`);
    return {
      ok: true,
      author,
      name,
      version: statement.version,
      path: target,
      skill,
      statement,
      warnings: ['the hub cannot be reached: serving the copy installed before, verified offline', ...verdict.warnings],
    };
  }

  /**
   * The files as installed. A Kazma manifest is re-signed for this host: the hub verified the
   * file Kazma loads, and this host's loader checks it with this host's secret.
   */
  private localFiles(skill: NormalizedSkill, files: readonly BundleFile[], warnings: string[]): LocalFiles {
    const entry = skill.format === 'kazma' ? loadedFile(skill, files) : undefined;
    const manifest = files.find((f) => f.path === skill.manifestPath);
    if (entry === undefined || manifest === undefined) return { files, resigned: null };
    const secret = this.options.kazmaSecret || undefined;
    const checksum = kazmaChecksum(entry.content);
    const certified = manifest.content.toString('utf8');
    const resigned = resignKazmaManifest(certified, {
      checksum,
      signature: secret ? kazmaSignature(checksum, secret) : null,
    });
    if (!secret) {
      warnings.push(
        `no KAZMA_SECRET: ${skill.manifestPath} is installed unsigned (Kazma loads it with a warning); ` +
          'set KAZMA_SECRET and install again to sign it for this host',
      );
    }
    return {
      files: files.map((f) => (f === manifest ? withContent(f, Buffer.from(resigned, 'utf8')) : f)),
      resigned: { path: manifest.path, entryPoint: entry.path, certified, signedLocally: secret !== undefined },
    };
  }

  /** Written beside the target, then swapped in, so a reader never sees half a skill. */
  private write(target: string, files: ReadonlyArray<{ path: string; content: Buffer; mode?: number }>): void {
    const staging = join(this.options.installDir, STAGING_DIR, basename(target));
    const replaced = `${staging}.replaced`;
    rmSync(staging, { recursive: true, force: true });
    rmSync(replaced, { recursive: true, force: true });
    for (const file of files) {
      const path = join(staging, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content, { mode: file.mode });
    }
    if (existsSync(target)) renameSync(target, replaced);
    renameSync(staging, target);
    rmSync(replaced, { recursive: true, force: true });
  }

  private async trustedKeys(): Promise<TrustedKey[]> {
    let keys = this.options.pinnedKeys.length ? this.options.pinnedKeys : this.options.state.keys();
    if (!keys) {
      keys = (await this.hub.keys()).keys;
      this.options.state.pinKeys(keys);
    }
    return toTrustedKeys(keys);
  }

  /**
   * Kazma's install meta: the SHA-256 of SKILL.md (what Kazma's activation check reads;
   * the manifest for other formats) and its HMAC with the local secret.
   */
  private installMeta(author: string, name: string, version: string, files: readonly BundleFile[]) {
    const subject =
      files.find((f) => f.path === 'SKILL.md') ?? files.find((f) => f.path === 'skill_manifest.yaml') ?? files[0]!;
    const checksum = kazmaChecksum(subject.content);
    const secret = this.options.kazmaSecret;
    return {
      source: `skillhub:${this.hub.baseUrl}/${author}/${name}@${version}`,
      name,
      version,
      author,
      checksum,
      algo: 'hmac-sha256',
      ...(secret ? { signature: kazmaSignature(checksum, secret) } : {}),
    };
  }
}

interface LocalFiles {
  files: readonly BundleFile[];
  resigned: ManifestResign | null;
}

/** The file Kazma's loader imports and checks: the entry point, else `main.py`; undefined when neither is there. */
function loadedFile(skill: NormalizedSkill, files: readonly BundleFile[]): BundleFile | undefined {
  const path = skill.entryPoint ?? 'main.py';
  return files.find((f) => f.path === path);
}

/**
 * Whose skill a folder holds, from its record or else its certificate (read, not verified: it
 * only decides whether to replace the folder); `skill` is null for a folder skillhub did not write.
 */
function occupantOf(dir: string): { skill: string | null; label: string } | null {
  if (!existsSync(dir)) return null;
  try {
    const record = readInstallRecord(dir);
    if (record) return { skill: record.skill, label: `${record.skill}@${record.version}` };
    const envelope = JSON.parse(readFileSync(join(dir, CERTIFICATE_FILE), 'utf8')) as { payload?: string };
    const claimed = decodeStatement(Buffer.from(String(envelope.payload), 'base64'));
    return { skill: claimed.skill, label: `${claimed.skill}@${claimed.version}` };
  } catch {
    return { skill: null, label: 'files skillhub did not install' };
  }
}

const withContent = (file: BundleFile, content: Buffer): BundleFile => ({
  ...file,
  content,
  size: content.length,
  sha256: sha256Hex(content),
});

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value, null, 2), 'utf8');
