/**
 * Installs a skill the hub certified, and nothing else: resolves the highest certified
 * version that matches the range, downloads it, and verifies it offline (certificate,
 * bundle and file digests, log inclusion and consistency with the last checkpoint,
 * revocations, expiry) before a byte is written. Installed skills get Kazma's
 * `.kazma-install.json`, signed with the local KAZMA_SECRET, so Kazma's own activation
 * check accepts them.
 */
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as semver from 'semver';
import { readBundle } from '@skillhub/bundle';
import { parseSkill, type NormalizedSkill } from '@skillhub/skill-formats';
import { type ServedCertificate, type TrustedKey, verifyInstallation } from '@skillhub/signing';
import { type PinnedKey, toTrustedKeys, TrustState } from './trust-state';
import { CERTIFICATE_FILE } from './installed-files';

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
  installDir: string;
  state: TrustState;
  logOrigin: string;
  /** Keys pinned in the runtime config; when empty, the hub's keys are pinned on first use. */
  pinnedKeys: PinnedKey[];
  /** The local KAZMA_SECRET that signs `.kazma-install.json`; unsigned meta without it. */
  kazmaSecret?: string;
  now?: () => Date;
}

export type InstallResult =
  | { ok: true; author: string; name: string; version: string; path: string; skill: NormalizedSkill }
  | { ok: false; author: string; name: string; reason: string; message: string };

export class SkillInstaller {
  constructor(
    private readonly hub: HubReader,
    private readonly options: InstallOptions,
  ) {}

  async install(author: string, name: string, range: string): Promise<InstallResult> {
    const refuse = (reason: string, message: string): InstallResult => ({ ok: false, author, name, reason, message });
    const listing = await this.hub.getSkill(author, name);
    const inRange = listing.versions
      .filter((v) => v.status !== 'yanked' && semver.satisfies(v.version, range))
      .sort((a, b) => semver.rcompare(a.version, b.version));
    // The highest certified version; failing that, a revoked or expired one, so the refusal
    // names its real reason from the signed evidence instead of "not certified".
    const chosen =
      inRange.find((v) => v.certification.status === 'certified') ??
      inRange.find((v) => v.certification.status === 'revoked' || v.certification.status === 'expired');
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
      revocations: { envelope: await this.hub.revocations(), lastSeenIssuedAt: this.options.state.revocationsSeenAt() },
      now: this.options.now?.() ?? new Date(),
    });
    if (!verdict.ok) return refuse(verdict.reason, verdict.message);

    const target = join(this.options.installDir, author, name);
    const staging = `${target}.installing`;
    rmSync(staging, { recursive: true, force: true });
    for (const file of bundle.files) {
      const path = join(staging, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content, { mode: file.mode });
    }
    writeFileSync(
      join(staging, '.kazma-install.json'),
      JSON.stringify(this.installMeta(author, name, version, bundle.files), null, 2),
    );
    // The certificate travels with the skill, so it can be checked again offline (`skillhub verify`).
    writeFileSync(join(staging, CERTIFICATE_FILE), JSON.stringify(certificate.envelope, null, 2));
    rmSync(target, { recursive: true, force: true });
    mkdirSync(dirname(target), { recursive: true });
    renameSync(staging, target);
    this.options.state.saveCheckpoint(verdict.checkpoint);
    this.options.state.saveRevocationsSeenAt(verdict.revocationsIssuedAt);
    // Parsed from the verified bytes: what the runtime serves is what the certificate covers.
    const { skill } = parseSkill(bundle.files, { namespace: author, version, folderName: bundle.rootFolder });
    if (!skill) return refuse('tampered', `${author}/${name}@${version} no longer parses`);
    return { ok: true, author, name, version, path: target, skill };
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
  private installMeta(author: string, name: string, version: string, files: Array<{ path: string; content: Buffer }>) {
    const subject =
      files.find((f) => f.path === 'SKILL.md') ?? files.find((f) => f.path === 'skill_manifest.yaml') ?? files[0]!;
    const checksum = createHash('sha256').update(subject.content).digest('hex');
    const secret = this.options.kazmaSecret;
    return {
      source: `skillhub:${this.hub.baseUrl}/${author}/${name}@${version}`,
      name,
      version,
      author,
      checksum,
      algo: 'hmac-sha256',
      ...(secret ? { signature: createHmac('sha256', secret).update(checksum, 'utf8').digest('hex') } : {}),
    };
  }
}
