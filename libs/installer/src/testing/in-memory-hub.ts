/**
 * A hub in memory for the installer's specs, built on the real signing code: certificates in
 * DSSE envelopes, a Merkle log with signed checkpoints, and a signed revocation list. Only
 * what the installer reads is served; the e2e specs run the real hub.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readBundle } from '@skillhub/bundle';
import { parseSkill } from '@skillhub/skill-formats';
import {
  canonicalJson,
  consistencyProof,
  inclusionProof,
  kazmaChecksum,
  keyId,
  leafHash,
  manifestSha256,
  merkleRoot,
  REVOCATIONS_PAYLOAD_TYPE,
  signCertificate,
  signCheckpoint,
  signEnvelope,
  type CertificateStatement,
  type DsseEnvelope,
  type ServedCertificate,
} from '@skillhub/signing';
import type { HubReader } from '../skill-installer';
import type { PinnedKey } from '../trust-state';

export const LOG_ORIGIN = 'hub.test/log';
const DAY = 24 * 3600_000;

interface Published {
  bytes: Buffer;
  envelope: DsseEnvelope;
  statement: CertificateStatement;
}

export class InMemoryHub implements HubReader {
  readonly baseUrl = 'http://hub.test';
  private readonly key = generateKeyPairSync('ed25519');
  private readonly keyid = keyId(this.key.publicKey);
  private readonly versions = new Map<string, Published>();
  private readonly leaves: string[] = [];
  private readonly revoked: object[] = [];
  /** Issue time of the next revocation list; later lists are issued later. */
  listIssuedAt = new Date(Date.now() - 60_000);

  /** Certifies a bundle as the hub would, under `author` (the version comes from the bundle, or is given). */
  publish(author: string, bytes: Buffer, version?: string): CertificateStatement {
    const bundle = readBundle(bytes);
    const { skill, problems } = parseSkill(bundle.files, { namespace: author, version, folderName: bundle.rootFolder });
    if (!skill) throw new Error(`the bundle does not parse: ${JSON.stringify(problems)}`);
    const entry = skill.entryPoint && bundle.files.find((f) => f.path === skill.entryPoint);
    const now = Date.now();
    const statement: CertificateStatement = {
      skill: `${author}/${skill.name}`,
      version: skill.version,
      bundleSha256: bundle.sha256,
      manifestSha256: manifestSha256(skill.manifest),
      entryPointChecksum: entry ? kazmaChecksum(entry.content) : null,
      files: Object.fromEntries(bundle.files.map((f) => [f.path, f.sha256])),
      capabilities: [],
      permissions: [],
      codeCapabilities: [],
      packages: [],
      tools: {},
      servers: [],
      level: 'standard',
      checkResultsSha256: bundle.sha256,
      issuedAt: new Date(now - DAY).toISOString(),
      expiresAt: new Date(now + 365 * DAY).toISOString(),
      logIndex: this.leaves.length,
    };
    const envelope = signCertificate(statement, this.key.privateKey, this.keyid);
    this.leaves.push(JSON.stringify(envelope));
    this.versions.set(`${statement.skill}@${statement.version}`, { bytes, envelope, statement });
    return statement;
  }

  revoke(statement: CertificateStatement, reason: string): void {
    const { skill, version, bundleSha256, logIndex } = statement;
    this.revoked.push({ skill, version, bundleSha256, reason, logIndex, revokedAt: new Date().toISOString() });
  }

  async getSkill(author: string, name: string) {
    const versions = [...this.versions.values()]
      .filter((p) => p.statement.skill === `${author}/${name}`)
      .map((p) => ({ version: p.statement.version, status: 'active', certification: { status: 'certified' } }));
    return { versions };
  }

  async certificate(author: string, name: string, version: string): Promise<ServedCertificate> {
    const { envelope, statement } = this.published(author, name, version);
    const hashes = this.leaves.map((leaf) => leafHash(Buffer.from(leaf, 'utf8')));
    const rootHash = merkleRoot(hashes);
    const note = signCheckpoint(
      { origin: LOG_ORIGIN, treeSize: hashes.length, rootHash, timestamp: new Date() },
      this.key.privateKey,
    );
    return {
      envelope,
      log_index: statement.logIndex,
      checkpoint: { origin: LOG_ORIGIN, tree_size: hashes.length, root_hash: rootHash.toString('hex'), note },
      inclusion_proof: inclusionProof(statement.logIndex, hashes).map((h) => h.toString('hex')),
    };
  }

  async downloadBundle(author: string, name: string, version: string) {
    return { bytes: this.published(author, name, version).bytes };
  }

  async logEntry(index: number) {
    return { leaf_data: this.leaves[index]! };
  }

  async consistencyProof(first: number, second: number) {
    const hashes = this.leaves.slice(0, second).map((leaf) => leafHash(Buffer.from(leaf, 'utf8')));
    return { hashes: consistencyProof(first, hashes).map((h) => h.toString('hex')) };
  }

  async keys(): Promise<{ keys: PinnedKey[] }> {
    const pem = this.key.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    return { keys: [{ keyid: this.keyid, public_key_pem: pem }] };
  }

  /** A fresh list, signed now; each one is issued a second after the one before. */
  async revocations(): Promise<DsseEnvelope> {
    const issuedAt = this.listIssuedAt;
    this.listIssuedAt = new Date(issuedAt.getTime() + 1000);
    const list = {
      issuedAt: issuedAt.toISOString(),
      expiresAt: new Date(issuedAt.getTime() + 3600_000).toISOString(),
      logSize: this.leaves.length,
      revoked: this.revoked,
    };
    return signEnvelope(
      REVOCATIONS_PAYLOAD_TYPE,
      Buffer.from(canonicalJson(list), 'utf8'),
      this.key.privateKey,
      this.keyid,
    );
  }

  private published(author: string, name: string, version: string): Published {
    const found = this.versions.get(`${author}/${name}@${version}`);
    if (!found) throw new Error(`${author}/${name}@${version} was not published`);
    return found;
  }
}
