/**
 * Judges one skill version: reads its stored bundle, parses it again (nothing stored
 * is trusted), probes the packages its MCP servers run, runs every check (pure, in
 * libs/certification), and records the verdict once. The verdict, the certificate and
 * its log entry are written in one transaction that first locks the certification
 * row, so a job delivered twice, or retried after its worker was killed, records one
 * result and one log entry.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { readBundle } from '@skillhub/bundle';
import { certify, type CertificationReport } from '@skillhub/certification';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { PackageProber } from '@skillhub/package-probe';
import { addToOutbox, CERTIFICATION_QUEUE, CERTIFY_JOB, type CertifyJobPayload } from '@skillhub/queue';
import { Blob, Certificate, Certification, Namespace, Skill, SkillVersion } from '@skillhub/registry';
import { openSecret, signCertificate } from '@skillhub/signing';
import { parseSkill } from '@skillhub/skill-formats';
import { encryptionKey } from './encryption-key';
import { SigningKeyService } from './signing-key.service';
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
export class CertifySkillService {
  private readonly logger = new Logger('CertifySkillService');
  private readonly prober: PackageProber;

  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: SigningKeyService,
    private readonly log: TransparencyLog,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {
    this.prober = new PackageProber({
      npmBaseUrl: config.NPM_REGISTRY_URL,
      pypiBaseUrl: config.PYPI_REGISTRY_URL,
      timeoutMs: config.PROBE_TIMEOUT_MS,
      maxAttempts: config.PROBE_MAX_ATTEMPTS,
    });
  }

  async certify(job: CertifyJobPayload): Promise<CertifyOutcome> {
    const subject = await this.load(job);
    if (!subject) return 'missing';
    if (!OPEN_STATES.has(subject.certification.status)) return 'already-judged';
    const report = await this.judge(subject);
    return this.record(subject, report);
  }

  private async load(job: CertifyJobPayload): Promise<Subject | null> {
    const m = this.dataSource.manager;
    const version = await m.findOneBy(SkillVersion, { id: job.skillVersionId });
    if (!version) return null;
    const certification = await m.findOneBy(Certification, {
      skillVersionId: version.id,
      policyVersion: job.policyVersion,
    });
    if (!certification) return null;
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

  private async judge(subject: Subject): Promise<CertificationReport> {
    const { version, skill, namespace, bytes } = subject;
    const bundle = readBundle(bytes, {
      maxCompressedBytes: this.config.BUNDLE_MAX_COMPRESSED_BYTES,
      maxUncompressedBytes: this.config.BUNDLE_MAX_UNCOMPRESSED_BYTES,
      maxEntries: this.config.BUNDLE_MAX_ENTRIES,
      maxCompressionRatio: this.config.BUNDLE_MAX_COMPRESSION_RATIO,
    });
    const parsed = parseSkill(bundle.files, {
      namespace: namespace.slug,
      version: version.version,
      folderName: bundle.rootFolder,
    });
    const skillRef = `${namespace.slug}/${skill.name}`;
    const packages = parsed.skill?.mcpServers.flatMap((s) => s.packages) ?? [];
    const repositoryUrls = [parsed.skill?.repository, parsed.skill?.homepage].filter((u): u is string => !!u);
    const probes = await Promise.all(
      packages.map((ref) => this.prober.probe(ref, { skillRef, publisher: namespace.slug, repositoryUrls })),
    );
    return certify({
      bundle,
      skill: parsed.skill,
      parseProblems: parsed.problems,
      namespace: { slug: namespace.slug, ownerMatches: namespace.ownerId === version.publishedBy },
      kazmaSecrets: this.kazmaSecrets(namespace),
      probes,
      popularNames: await this.popularNames(namespace.ownerId),
      policyVersion: subject.certification.policyVersion,
      now: new Date(),
      certificateLifetimeDays: this.config.CERTIFICATE_LIFETIME_DAYS,
    });
  }

  private kazmaSecrets(namespace: Namespace): string[] {
    const secrets: string[] = [];
    if (namespace.kazmaSecretSealed) secrets.push(openSecret(namespace.kazmaSecretSealed, encryptionKey(this.config)));
    if (this.config.KAZMA_SECRET) secrets.push(this.config.KAZMA_SECRET);
    return secrets;
  }

  private async popularNames(ownerId: string): Promise<Array<{ ref: string; owner: string }>> {
    const rows: Array<{ ref: string; owner: string }> = await this.dataSource.query(
      `SELECT n."slug" || '/' || s."name" AS ref, n."slug" AS owner
       FROM "skills" s JOIN "namespaces" n ON n."id" = s."namespace_id"
       WHERE n."owner_id" <> $1 ORDER BY s."downloads" DESC LIMIT ${POPULAR_SKILLS}`,
      [ownerId],
    );
    return rows;
  }

  private async record(subject: Subject, report: CertificationReport): Promise<CertifyOutcome> {
    const { version, skill, namespace } = subject;
    return this.dataSource.transaction(async (m) => {
      const cert = await m.findOne(Certification, {
        where: { id: subject.certification.id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!cert || !OPEN_STATES.has(cert.status)) return 'already-judged';

      if (report.status === 'certified') {
        const { keyId, privateKey } = await this.keys.activeKey(m);
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
              packages: report.pinnedPackages,
              tools: report.toolHashes,
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
      return report.status;
    });
  }
}
