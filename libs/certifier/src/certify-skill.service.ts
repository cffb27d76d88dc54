/**
 * Judges one skill version: reads its stored bundle, parses it again (nothing stored
 * is trusted), probes the packages its MCP servers run, runs every check (pure, in
 * libs/certification), and records the verdict once. The verdict, the certificate and
 * its log entry are written in one transaction that first locks the certification
 * row, so a job delivered twice, or retried after its worker was killed, records one
 * result and one log entry.
 */
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DEFAULT_BUNDLE_LIMITS, sha256Hex, type Bundle, type BundleLimits } from '@skillhub/bundle';
import {
  CERTIFICATION_POLICY_VERSION,
  datedReport,
  type CertificationReport,
  type CertificationVerdict,
  type RegisteredKey,
} from '@skillhub/certification';
import { loadCodeAnalyzer } from '@skillhub/code-analysis';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { PackageProber, type ProbeResult } from '@skillhub/package-probe';
import {
  addToOutbox,
  CERTIFICATION_QUEUE,
  CERTIFY_JOB,
  type CertifyJobPayload,
  type CertifySubmissionJobPayload,
} from '@skillhub/queue';
import {
  Blob,
  Certificate,
  Certification,
  Namespace,
  PublisherKey,
  Revocation,
  Skill,
  SkillVersion,
  Submission,
} from '@skillhub/database';
import { openSecret, publicKeyFromPem, signCertificate, type PinnedPackage } from '@skillhub/signing';
import { parseKazmaManifestObject, type PackageRef } from '@skillhub/skill-formats';
import { stringify } from 'yaml';
import { encryptionKey } from './encryption-key';
import { liveToolsRecorder } from './live-tools.recorder';
import { certificationOutcomes, probeLatency } from './certifier.metrics';
import { RevocationsService } from './revocations.service';
import { SigningKeyService } from './signing-key.service';
import { SkillJudge } from './skill-judge';
import { TransparencyLog } from './transparency-log.service';

export type CertifyOutcome = CertificationReport['status'] | 'already-judged' | 'missing';

/** Judged again only from these states (a retry, or a registry that did not answer before). */
const OPEN_STATES = new Set(['pending', 'inconclusive']);
/** Names of this many most-downloaded skills are what C10 compares against. */
const POPULAR_SKILLS = 500;

interface Subject {
  version: SkillVersion;
  skill: Skill;
  namespace: Namespace;
  certification: Certification;
  bytes: Buffer;
}

@Injectable()
export class CertifySkillService implements OnModuleInit {
  private readonly logger = new Logger('CertifySkillService');
  private readonly prober: PackageProber;
  private judgeOf: SkillJudge | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: SigningKeyService,
    private readonly log: TransparencyLog,
    private readonly revocations: RevocationsService,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {
    this.prober = new PackageProber({
      npmBaseUrl: config.NPM_REGISTRY_URL,
      pypiBaseUrl: config.PYPI_REGISTRY_URL,
      timeoutMs: config.PROBE_TIMEOUT_MS,
      maxAttempts: config.PROBE_MAX_ATTEMPTS,
    });
  }

  /** The grammars load asynchronously, once per process, before the first job. */
  async onModuleInit(): Promise<void> {
    this.judgeOf = new SkillJudge({
      analyzer: await loadCodeAnalyzer(),
      prober: this.prober,
      probe: (ref) => this.timedProbe(ref),
      liveTools: await liveToolsRecorder(this.config, this.logger),
      limits: this.bundleLimits(),
    });
  }

  private get judge(): SkillJudge {
    if (!this.judgeOf) throw new Error('CertifySkillService used before its module was initialised');
    return this.judgeOf;
  }

  async certify(job: CertifyJobPayload): Promise<CertifyOutcome> {
    const subject = await this.load(job);
    if (subject === 'missing' || subject === 'already-judged') return subject;
    const { version, namespace, bytes } = subject;
    const verdict = await this.judge.judge({
      bundle: bytes,
      namespace: { slug: namespace.slug, ownerMatches: namespace.ownerId === version.publishedBy },
      version: version.version,
      kazmaSecrets: this.kazmaSecrets(namespace),
      publisherKeys: await this.publisherKeys(namespace.id),
      publishedAt: version.createdAt,
      popularNames: await this.popularNames(namespace.ownerId),
      policyVersion: subject.certification.policyVersion,
    });
    return this.record(subject, verdict);
  }

  /** Everything a judgment reads; a duplicate job stops before the bundle is loaded. */
  private async load(job: CertifyJobPayload): Promise<Subject | 'missing' | 'already-judged'> {
    const m = this.dataSource.manager;
    const version = await m.findOneBy(SkillVersion, { id: job.skillVersionId });
    if (!version) return 'missing';
    const certification = await m.findOneBy(Certification, {
      skillVersionId: version.id,
      policyVersion: job.policyVersion,
    });
    if (!certification) return 'missing';
    if (!OPEN_STATES.has(certification.status)) return 'already-judged';
    const skill = await m.findOneByOrFail(Skill, { id: version.skillId });
    const namespace = await m
      .getRepository(Namespace)
      .createQueryBuilder('n')
      .addSelect('n.kazmaSecretSealed')
      .where('n.id = :id', { id: skill.namespaceId })
      .getOneOrFail();
    const blob = await m
      .getRepository(Blob)
      .createQueryBuilder('b')
      .addSelect('b.content')
      .where('b.sha256 = :sha', { sha: version.bundleSha256 })
      .getOneOrFail();
    return { version, skill, namespace, certification, bytes: blob.content };
  }

  /**
   * A quarantined Kazma submission: the checks that apply to a manifest alone, stored on
   * the submission (it can never be certified before an owner claims it).
   */
  async certifySubmission(job: CertifySubmissionJobPayload): Promise<CertifyOutcome> {
    const submission = await this.dataSource.getRepository(Submission).findOneBy({ id: job.submissionId });
    if (!submission) return 'missing';
    if (submission.status !== 'quarantined' || submission.report) return 'already-judged';
    const parsed = parseKazmaManifestObject(submission.manifest);
    const content = Buffer.from(stringify(submission.manifest), 'utf8');
    const bundle: Bundle = {
      sha256: sha256Hex(content),
      size: content.length,
      uncompressedSize: content.length,
      rootFolder: submission.name,
      files: [{ path: 'skill_manifest.yaml', size: content.length, sha256: sha256Hex(content), mode: 0o644, content }],
    };
    const report = await this.judge.judge({
      bundle,
      parsed,
      namespace: { slug: submission.namespaceSlug, ownerMatches: false },
      version: '0.0.0',
      kazmaSecrets: [],
      publisherKeys: [],
      publishedAt: submission.createdAt,
      popularNames: await this.popularNames(null),
      policyVersion: CERTIFICATION_POLICY_VERSION,
      manifestOnly: true,
    });
    await this.dataSource
      .getRepository(Submission)
      .update({ id: submission.id, status: 'quarantined' }, { report: report as object });
    return report.status;
  }

  /**
   * The daily re-probe: each certified version's pinned packages are asked for again at
   * their exact versions. One that disappeared, was yanked or now has other bytes
   * (integrity) revokes the certificate; a registry that does not answer changes nothing.
   */
  async reprobe(): Promise<{ checked: number; revoked: number }> {
    const rows: Array<{
      version_id: string;
      skill: string;
      version: string;
      bundle_sha256: string;
      report: { pinnedPackages?: PinnedPackage[] };
    }> = await this.dataSource.query(
      `SELECT v."id" AS version_id, n."slug" || '/' || s."name" AS skill, v."version", v."bundle_sha256", c."report"
         FROM "certifications" c JOIN "skill_versions" v ON v."id" = c."skill_version_id"
         JOIN "skills" s ON s."id" = v."skill_id" JOIN "namespaces" n ON n."id" = s."namespace_id"
         WHERE c."status" = 'certified' AND c."policy_version" = $1 AND jsonb_array_length(c."report"->'pinnedPackages') > 0`,
      [CERTIFICATION_POLICY_VERSION],
    );
    let revoked = 0;
    for (const row of rows) {
      const pinned = row.report.pinnedPackages ?? [];
      const probes = await Promise.all(
        pinned.map((p) =>
          this.timedProbe({ registry: p.registry, name: p.name, version: p.version, source: 'reprobe' }),
        ),
      );
      const reason = probes
        .map((probe, i) => {
          const was = pinned[i]!;
          if (probe.outcome === 'inconclusive') return null;
          if (probe.outcome !== 'found')
            return `${was.name}@${was.version} is now ${probe.outcome.replace(/_/g, ' ')}: ${probe.detail}`;
          if (was.integrity && probe.integrity !== was.integrity)
            return `${was.name}@${was.version} changed its bytes (integrity ${was.integrity} → ${probe.integrity})`;
          return null;
        })
        .find((r): r is string => r !== null);
      if (!reason) continue;
      await this.dataSource.transaction((m) =>
        this.revocations.revoke(
          m,
          { versionId: row.version_id, skill: row.skill, version: row.version, bundleSha256: row.bundle_sha256 },
          reason.slice(0, 1000),
          'certifier',
        ),
      );
      this.logger.warn(`revoked ${row.skill}@${row.version}: ${reason}`);
      revoked++;
    }
    return { checked: rows.length, revoked };
  }

  private async timedProbe(ref: PackageRef): Promise<ProbeResult> {
    const end = probeLatency.startTimer({ registry: ref.registry });
    const result = await this.prober.probe(ref);
    end({ outcome: result.outcome });
    return result;
  }

  private bundleLimits(): BundleLimits {
    return {
      ...DEFAULT_BUNDLE_LIMITS,
      maxCompressedBytes: this.config.BUNDLE_MAX_COMPRESSED_BYTES,
      maxUncompressedBytes: this.config.BUNDLE_MAX_UNCOMPRESSED_BYTES,
      maxEntries: this.config.BUNDLE_MAX_ENTRIES,
      maxCompressionRatio: this.config.BUNDLE_MAX_COMPRESSION_RATIO,
    };
  }

  private kazmaSecrets(namespace: Namespace): string[] {
    const secrets: string[] = [];
    if (namespace.kazmaSecretSealed) secrets.push(openSecret(namespace.kazmaSecretSealed, encryptionKey(this.config)));
    if (this.config.KAZMA_SECRET) secrets.push(this.config.KAZMA_SECRET);
    return secrets;
  }

  /** The namespace's publisher keys (C14); a removed one stays, valid only until its removal. */
  private async publisherKeys(namespaceId: string): Promise<RegisteredKey[]> {
    const rows = await this.dataSource.getRepository(PublisherKey).findBy({ namespaceId });
    return rows.map((row) => ({
      keyid: row.keyId,
      publicKey: publicKeyFromPem(row.publicKeyPem),
      registeredAt: row.createdAt, // not a validity start: worker and database clocks may differ
      notAfter: row.removedAt ?? undefined,
    }));
  }

  /** The most downloaded skills of other owners (all owners when `ownerId` is null). */
  private async popularNames(ownerId: string | null): Promise<Array<{ ref: string; owner: string }>> {
    return this.dataSource.query(
      `SELECT n."slug" || '/' || s."name" AS ref, n."slug" AS owner
       FROM "skills" s JOIN "namespaces" n ON n."id" = s."namespace_id"
       WHERE $1::uuid IS NULL OR n."owner_id" <> $1::uuid ORDER BY s."downloads" DESC LIMIT ${POPULAR_SKILLS}`,
      [ownerId],
    );
  }

  private async record(subject: Subject, verdict: CertificationVerdict): Promise<CertifyOutcome> {
    const { version, skill, namespace } = subject;
    return this.dataSource.transaction(async (m) => {
      const cert = await m.findOne(Certification, {
        where: { id: subject.certification.id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!cert || !OPEN_STATES.has(cert.status)) return 'already-judged';
      // Revoked while this judgment was queued (a re-judgment under a new policy, say): a
      // revocation is never undone by a verdict. A revocation committing after this point waits
      // on the row lock and then marks this row too.
      if (await m.existsBy(Revocation, { skillVersionId: version.id })) {
        await m.update(Certification, cert.id, { status: 'revoked', level: 'none' });
        return 'already-judged';
      }

      // Dated once, after the signing key exists: a key made for this very certificate (the
      // hub's first) must already be valid at the certificate's issue time.
      const key = verdict.status === 'certified' ? await this.keys.activeKey(m) : null;
      const report: CertificationReport = datedReport(verdict, new Date(), this.config.CERTIFICATE_LIFETIME_DAYS);
      if (key) {
        const { keyId, privateKey } = key;
        let envelope: object | null = null;
        const logIndex = await this.log.append(m, (index) => {
          envelope = signCertificate(
            {
              skill: `${namespace.slug}/${skill.name}`,
              version: version.version,
              bundleSha256: version.bundleSha256,
              manifestSha256: report.manifestSha256 ?? '',
              entryPointChecksum: report.entryPointChecksum,
              files: Object.fromEntries(report.files.map((f) => [f.path, f.sha256])),
              capabilities: version.capabilities,
              permissions: version.permissions,
              codeCapabilities: report.capabilities.map((capability) => capability.capability),
              packages: report.pinnedPackages,
              tools: report.toolHashes,
              servers: report.servers,
              level: report.level,
              checkResultsSha256: report.resultsSha256,
              issuedAt: report.issuedAt!,
              expiresAt: report.expiresAt!,
              logIndex: index,
            },
            privateKey,
            keyId,
          );
          return {
            kind: 'certification',
            data: JSON.stringify(envelope),
            summary: { skill: `${namespace.slug}/${skill.name}`, version: version.version, level: report.level, keyId },
          };
        });
        await m.insert(Certificate, {
          certificationId: cert.id,
          keyId,
          envelope: envelope!,
          logIndex: String(logIndex),
          issuedAt: new Date(report.issuedAt!),
          expiresAt: new Date(report.expiresAt!),
        });
      }
      if (report.status === 'inconclusive') {
        // A registry did not answer: never a pass; judged again later from the outbox.
        await addToOutbox(
          m,
          CERTIFICATION_QUEUE,
          CERTIFY_JOB,
          {
            skillVersionId: version.id,
            policyVersion: cert.policyVersion,
          },
          new Date(Date.now() + this.config.INCONCLUSIVE_RETRY_MS),
        );
      }
      await m.update(Certification, cert.id, {
        status: report.status,
        level: report.level,
        report: report as object,
        requirementsMet: report.requirementsMet,
        issuedAt: report.issuedAt ? new Date(report.issuedAt) : null,
        expiresAt: report.expiresAt ? new Date(report.expiresAt) : null,
      });
      this.logger.log(`${namespace.slug}/${skill.name}@${version.version}: ${report.status} (${report.level})`);
      certificationOutcomes.inc({ status: report.status, level: report.level });
      return report.status;
    });
  }
}
