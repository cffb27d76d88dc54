/**
 * What lets anyone check the hub's word: its public keys, the transparency log and
 * its proofs, certificates, revocations (written to the log) and the signed list of
 * them, and namespaces' Kazma secrets (sealed at rest).
 */
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import {
  CertificationRepository,
  NamespaceRepository,
  RevocationRepository,
  SkillRepository,
  type Namespace,
} from '@skillhub/database';
import { DomainError } from '@skillhub/errors';
import { canonicalJson, REVOCATIONS_PAYLOAD_TYPE, sealSecret, signEnvelope } from '@skillhub/signing';
import { VerdictEvents } from '@skillhub/queue';
import { encryptionKey, RevocationsService, SigningKeyService, TransparencyLog } from '@skillhub/trust';
import { assertCanActOn } from '../auth/namespace-access';
import type { Principal } from '../auth/principal';
import { kazmaSkillId } from '../skills/skill-ref';
import { SkillNotFoundError } from '../skills/skills.errors';
import { findVersion } from '../skills/version-lookup';
import type {
  CertificateResponseDto,
  CheckpointDto,
  ConsistencyQueryDto,
  InclusionQueryDto,
  KeysResponseDto,
  LogEntryDto,
  ProofDto,
} from './dto/trust.dto';

/** The signed revocation list is short-lived, so a runtime notices a stale copy. */
const REVOCATION_LIST_TTL_MS = 3600_000;

export class TrustNotFoundError extends DomainError {
  constructor(what: string) {
    super('not-found', 'TRUST.NOT_FOUND', what);
  }
}

/** The namespace, or TRUST.NOT_FOUND; `lock` takes its row for the rest of the transaction. */
export async function namespaceOrFail(
  namespaces: NamespaceRepository,
  slug: string,
  m?: EntityManager,
  lock = false,
): Promise<Namespace> {
  const namespace = await namespaces.bySlug(slug, m, lock);
  if (!namespace) throw new TrustNotFoundError(`No namespace ${slug}.`);
  return namespace;
}

@Injectable()
export class TrustService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly skills: SkillRepository,
    private readonly namespaces: NamespaceRepository,
    private readonly certifications: CertificationRepository,
    private readonly revoked: RevocationRepository,
    private readonly keys: SigningKeyService,
    private readonly log: TransparencyLog,
    private readonly revocations: RevocationsService,
    private readonly verdicts: VerdictEvents,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  async publicKeys(): Promise<KeysResponseDto> {
    await this.keys.activeKey(); // a fresh hub publishes the key it will sign with
    const rows = await this.keys.publicKeys();
    return {
      keys: rows.map((k) => ({
        keyid: k.keyId,
        algorithm: 'ed25519',
        public_key_pem: k.publicKeyPem,
        not_before: k.notBefore.toISOString(),
        not_after: k.notAfter?.toISOString() ?? null,
      })),
    };
  }

  rotateKey(): Promise<string> {
    return this.keys.rotate();
  }

  async checkpoint(size?: number): Promise<CheckpointDto> {
    const row = size ? await this.log.checkpointOfSize(size) : await this.log.checkpoint();
    if (!row) throw new TrustNotFoundError(size ? `No checkpoint of size ${size}.` : 'The log is empty.');
    return {
      origin: this.config.HUB_LOG_ORIGIN,
      tree_size: Number(row.treeSize),
      root_hash: row.rootHash,
      note: row.note,
    };
  }

  async entry(index: number): Promise<LogEntryDto> {
    const row = await this.log.entry(index);
    if (!row) throw new TrustNotFoundError(`No log entry ${index}.`);
    return {
      index: Number(row.index),
      kind: row.kind,
      leaf_data: row.leafData,
      leaf_hash: row.leafHash,
      summary: row.summary,
    };
  }

  async inclusion(q: InclusionQueryDto): Promise<ProofDto> {
    const hashes = await this.log.inclusion(q.index, q.tree_size);
    return { hashes, tree_size: q.tree_size, root_hash: (await this.checkpoint(q.tree_size)).root_hash };
  }

  async consistency(q: ConsistencyQueryDto): Promise<ProofDto> {
    const hashes = await this.log.consistency(q.first, q.second);
    return { hashes, tree_size: q.second, root_hash: (await this.checkpoint(q.second)).root_hash };
  }

  async certificate(author: string, name: string, version: string): Promise<CertificateResponseDto> {
    const v = await findVersion(this.skills, author, name, version);
    const cert = await this.certifications.certificateOf(v.id);
    if (!cert) throw new TrustNotFoundError(`${kazmaSkillId(author, name, version)} holds no certificate.`);
    const checkpoint = await this.checkpoint();
    return {
      envelope: cert.envelope,
      key_id: cert.keyId,
      log_index: Number(cert.logIndex),
      issued_at: cert.issuedAt.toISOString(),
      expires_at: cert.expiresAt.toISOString(),
      checkpoint,
      inclusion_proof: await this.log.inclusion(Number(cert.logIndex), checkpoint.tree_size),
    };
  }

  /** Revokes a version's certification: a log entry, and the badge and lists change in the same commit. */
  async revoke(
    principal: Principal,
    author: string,
    name: string,
    version: string,
    reason: string,
  ): Promise<LogEntryDto> {
    const index = await this.dataSource.transaction(async (m) => {
      const namespace = await this.namespaces.bySlug(author, m);
      if (!namespace) throw new SkillNotFoundError(kazmaSkillId(author, name, version));
      assertCanActOn(principal, namespace);
      const v = await findVersion(this.skills, author, name, version, m);
      const revokedBy = principal.kind === 'admin' ? 'operator' : principal.publisherId;
      return this.revocations.revoke(
        m,
        { versionId: v.id, skill: `${author}/${name}`, version, bundleSha256: v.bundleSha256 },
        reason,
        revokedBy,
      );
    });
    await this.verdicts.changed(`${author}/${name}`);
    return this.entry(index);
  }

  /** Every revocation, signed, valid for an hour: a runtime refuses a stale or older list. */
  async revocationList(): Promise<object> {
    const rows = await this.revoked.all();
    const now = Date.now();
    const list = {
      issuedAt: new Date(now).toISOString(),
      expiresAt: new Date(now + REVOCATION_LIST_TTL_MS).toISOString(),
      logSize: await this.log.size(),
      revoked: rows.map((r) => ({
        skill: r.skill,
        version: r.version,
        bundleSha256: r.bundleSha256,
        reason: r.reason,
        logIndex: r.logIndex,
        revokedAt: r.revokedAt.toISOString(),
      })),
    };
    const { keyId, privateKey } = await this.keys.activeKey();
    return signEnvelope(REVOCATIONS_PAYLOAD_TYPE, Buffer.from(canonicalJson(list), 'utf8'), privateKey, keyId);
  }

  async setKazmaSecret(principal: Principal, slug: string, secret: string | null): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      const namespace = await namespaceOrFail(this.namespaces, slug, m);
      assertCanActOn(principal, namespace);
      const sealed = secret === null ? null : sealSecret(secret, encryptionKey(this.config));
      await this.namespaces.setSecret(m, namespace.id, sealed);
    });
  }
}
