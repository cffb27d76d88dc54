/**
 * Records a verdict once: in one transaction that first locks the certification row, it dates
 * the verdict, signs the certificate (which lists exactly what may run), appends it to the
 * transparency log and stores the report; an inconclusive verdict asks to be judged again
 * later. A job delivered twice, or retried after its worker was killed, records one result
 * and one log entry.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { datedReport, type CertificationReport, type CertificationVerdict } from '@skillhub/certification';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import {
  CertificationRepository,
  RevocationRepository,
  type Certification,
  type Namespace,
  type Skill,
  type SkillVersion,
} from '@skillhub/database';
import { addToOutbox, CERTIFICATION_QUEUE, CERTIFY_JOB, VerdictEvents } from '@skillhub/queue';
import { signCertificate, type DsseEnvelope } from '@skillhub/signing';
import { SigningKeyService, TransparencyLog } from '@skillhub/trust';
import { certificationOutcomes } from './certifier.metrics';

export type CertifyOutcome = CertificationReport['status'] | 'already-judged' | 'missing';

/** Judged again only from these states (a retry, or a registry that did not answer before). */
export const OPEN_STATES: ReadonlySet<string> = new Set(['pending', 'inconclusive']);

/** The version a verdict is about, as loaded before judging. */
export interface JudgedVersion {
  version: SkillVersion;
  skill: Skill;
  namespace: Namespace;
  certification: Certification;
}

@Injectable()
export class CertificationRecorder {
  private readonly logger = new Logger('CertificationRecorder');

  constructor(
    private readonly dataSource: DataSource,
    private readonly certifications: CertificationRepository,
    private readonly revocations: RevocationRepository,
    private readonly keys: SigningKeyService,
    private readonly log: TransparencyLog,
    private readonly verdicts: VerdictEvents,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  async record(subject: JudgedVersion, verdict: CertificationVerdict): Promise<CertifyOutcome> {
    const { version, skill, namespace } = subject;
    const ref = `${namespace.slug}/${skill.name}`;
    const outcome = await this.dataSource.transaction(async (m): Promise<CertifyOutcome> => {
      const cert = await this.certifications.lock(m, subject.certification.id);
      if (!cert || !OPEN_STATES.has(cert.status)) return 'already-judged';
      // Revoked while this judgment was queued (a re-judgment under a new policy, say): a
      // revocation is never undone by a verdict. A revocation committing after this point waits
      // on the row lock and then marks this row too.
      if (await this.revocations.isRevoked(version.id, m)) {
        await this.certifications.markRevoked(m, cert.id);
        return 'already-judged';
      }

      // Dated once, after the signing key exists: a key made for this very certificate (the
      // hub's first) must already be valid at the certificate's issue time.
      const key = verdict.status === 'certified' ? await this.keys.activeKey(m) : null;
      const report = datedReport(verdict, new Date(), this.config.CERTIFICATE_LIFETIME_DAYS);
      if (key) {
        const { keyId, privateKey } = key;
        let envelope: DsseEnvelope | null = null;
        const logIndex = await this.log.append(m, (index) => {
          envelope = signCertificate(
            {
              skill: ref,
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
            summary: { skill: ref, version: version.version, level: report.level, keyId },
          };
        });
        await this.certifications.addCertificate(m, {
          certificationId: cert.id,
          keyId,
          envelope: envelope!,
          logIndex,
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
          { skillVersionId: version.id, policyVersion: cert.policyVersion },
          new Date(Date.now() + this.config.INCONCLUSIVE_RETRY_MS),
        );
      }
      await this.certifications.recordVerdict(m, cert.id, report);
      this.logger.log(`${ref}@${version.version}: ${report.status} (${report.level})`);
      certificationOutcomes.inc({ status: report.status, level: report.level });
      return report.status;
    });
    await this.verdicts.changed(ref);
    return outcome;
  }
}
