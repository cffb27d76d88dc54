/**
 * Judges one skill version: loads its stored bundle and what the checks compare it with (its
 * namespace's secrets and keys, the popular names), has SkillJudge parse it again (nothing
 * stored is trusted) and run every check, and hands the verdict to the recorder.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { RegisteredKey } from '@skillhub/certification';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import {
  CertificationRepository,
  CorruptBlobError,
  NamespaceRepository,
  PublisherKeyRepository,
  SkillRepository,
  type Namespace,
} from '@skillhub/database';
import type { CertifyJobPayload } from '@skillhub/queue';
import { openSecret, publicKeyFromPem } from '@skillhub/signing';
import { encryptionKey } from '@skillhub/trust';
import {
  CertificationRecorder,
  OPEN_STATES,
  type CertifyOutcome,
  type JudgedVersion,
} from './certification-recorder.service';
import { SkillJudgeService } from './skill-judge.service';

@Injectable()
export class CertifySkillService {
  constructor(
    private readonly skills: SkillRepository,
    private readonly namespaces: NamespaceRepository,
    private readonly certifications: CertificationRepository,
    private readonly publisherKeys: PublisherKeyRepository,
    private readonly judge: SkillJudgeService,
    private readonly recorder: CertificationRecorder,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  async certify(job: CertifyJobPayload): Promise<CertifyOutcome> {
    const subject = await this.load(job);
    if (subject === 'missing' || subject === 'already-judged') return subject;
    const { version, namespace } = subject;
    // A blob changed in storage is judged as what it is: not the bundle that was published.
    const bundle = await this.skills.bundleBytes(version.bundleSha256).catch((err: unknown) => {
      if (err instanceof CorruptBlobError) return { unreadable: err.message };
      throw err;
    });
    const verdict = await this.judge.judge({
      bundle,
      namespace: { slug: namespace.slug, ownerMatches: namespace.ownerId === version.publishedBy },
      version: version.version,
      kazmaSecrets: this.kazmaSecrets(namespace),
      publisherKeys: await this.registeredKeys(namespace.id),
      publishedAt: version.createdAt,
      popularNames: await this.judge.popularNames(namespace.ownerId),
      policyVersion: subject.certification.policyVersion,
    });
    return this.recorder.record(subject, verdict);
  }

  /** What a judgment is about; a duplicate job stops before the bundle is loaded. */
  private async load(job: CertifyJobPayload): Promise<JudgedVersion | 'missing' | 'already-judged'> {
    const version = await this.skills.versionById(job.skillVersionId);
    if (!version) return 'missing';
    const certification = await this.certifications.forJudgment(job);
    if (!certification) return 'missing';
    if (!OPEN_STATES.has(certification.status)) return 'already-judged';
    const skill = await this.skills.skillById(version.skillId);
    if (!skill) return 'missing';
    const namespace = await this.namespaces.withSecret(skill.namespaceId);
    return { version, skill, namespace, certification };
  }

  private kazmaSecrets(namespace: Namespace): string[] {
    const secrets: string[] = [];
    if (namespace.kazmaSecretSealed) secrets.push(openSecret(namespace.kazmaSecretSealed, encryptionKey(this.config)));
    if (this.config.KAZMA_SECRET) secrets.push(this.config.KAZMA_SECRET);
    return secrets;
  }

  /** The namespace's publisher keys (C14); a removed one stays, valid only until its removal. */
  private async registeredKeys(namespaceId: string): Promise<RegisteredKey[]> {
    const rows = await this.publisherKeys.ofNamespace(namespaceId);
    return rows.map((row) => ({
      keyid: row.keyId,
      publicKey: publicKeyFromPem(row.publicKeyPem),
      registeredAt: row.createdAt, // not a validity start: worker and database clocks may differ
      notAfter: row.removedAt ?? undefined,
    }));
  }
}
