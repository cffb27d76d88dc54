/**
 * A version's certification as users and Kazma's CLI see it: the stored verdict,
 * with a certificate past its expiry shown as `expired` (level none).
 */
import { Injectable } from '@nestjs/common';
import { DataSource, MoreThan } from 'typeorm';
import { CERTIFICATION_POLICY_VERSION } from '@skillhub/certification';
import { Certification, Submission } from '@skillhub/database';
import { kazmaSkillId } from '../skills/skill-ref';
import { SkillNotFoundError } from '../skills/skills.errors';
import { findVersion } from '../skills/version-lookup';
import { SubmissionNotFoundError } from '../submissions/submissions.errors';
import type { CertificationStatusDto } from './dto/certification-status.response.dto';

@Injectable()
export class CertificationStatusService {
  constructor(private readonly dataSource: DataSource) {}

  /** The version named, or the skill's listed version when `version` is omitted. */
  async forSkill(author: string, name: string, version?: string): Promise<CertificationStatusDto> {
    const v = await findVersion(this.dataSource.manager, author, name, version);
    const cert = await this.dataSource
      .getRepository(Certification)
      .findOneBy({ skillVersionId: v.id, policyVersion: CERTIFICATION_POLICY_VERSION });
    return certificationStatus(kazmaSkillId(author, name, v.version), cert);
  }

  /**
   * As `forSkill`, but a skill only submitted so far (Kazma's `submit`, then `badge <author>/<name>`)
   * answers with its newest live submission, quarantined at level none, rather than with a 404
   * that Kazma would print as "No badge found".
   */
  async forSkillOrSubmission(author: string, name: string, version?: string): Promise<CertificationStatusDto> {
    try {
      return await this.forSkill(author, name, version);
    } catch (err) {
      if (!(err instanceof SkillNotFoundError)) throw err;
      const submission = await this.dataSource.getRepository(Submission).findOne({
        where: {
          namespaceSlug: author,
          name,
          ...(version ? { version } : {}),
          status: 'quarantined',
          expiresAt: MoreThan(new Date()),
        },
        order: { createdAt: 'DESC' },
      });
      if (!submission) throw err;
      return quarantined(submission);
    }
  }

  /** Kazma's `status <submission_id>`: quarantined until claimed, then the published version's. */
  async forSubmission(id: string): Promise<CertificationStatusDto> {
    const submission = await this.dataSource.getRepository(Submission).findOneBy({ id });
    if (!submission) throw new SubmissionNotFoundError(id);
    if (submission.status === 'claimed') {
      return this.forSkill(submission.namespaceSlug, submission.name, submission.version);
    }
    return quarantined(submission);
  }
}

/** A submission nobody claimed yet: no certificate, only the manifest checks the certifier ran. */
function quarantined(submission: Submission): CertificationStatusDto {
  const ref = kazmaSkillId(submission.namespaceSlug, submission.name, submission.version);
  const expired = submission.expiresAt.getTime() <= Date.now();
  const report = submission.report as { requirementsMet?: Record<string, boolean> } | null;
  return {
    skill_id: ref,
    level: 'none',
    issued_at: null,
    expires_at: null,
    requirements_met: report?.requirementsMet ?? {},
    status: expired ? 'expired' : 'quarantined',
    policy_version: null,
    report: submission.report,
  };
}

export function certificationStatus(skillId: string, cert: Certification | null): CertificationStatusDto {
  const expired = cert?.status === 'certified' && cert.expiresAt !== null && cert.expiresAt.getTime() <= Date.now();
  const status = expired ? 'expired' : (cert?.status ?? 'pending');
  return {
    skill_id: skillId,
    level: status === 'certified' ? (cert?.level ?? 'none') : 'none',
    issued_at: cert?.issuedAt?.toISOString() ?? null,
    expires_at: cert?.expiresAt?.toISOString() ?? null,
    requirements_met: cert?.requirementsMet ?? {},
    status,
    policy_version: cert?.policyVersion ?? CERTIFICATION_POLICY_VERSION,
    report: cert?.report ?? null,
  };
}
