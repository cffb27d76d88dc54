/**
 * A version's certification as users and Kazma's CLI see it: the stored verdict under the
 * current policy, with a certificate past its expiry shown as `expired` (level none).
 */
import { Injectable } from '@nestjs/common';
import {
  CertificationRepository,
  CURRENT_POLICY,
  decodeOptionalReport,
  SkillRepository,
  statusNow,
  SubmissionRepository,
  type Certification,
  type Submission,
} from '@skillhub/database';
import { kazmaSkillId } from '../skills/skill-ref';
import { SkillNotFoundError } from '../skills/skills.errors';
import { findVersion } from '../skills/version-lookup';
import { SubmissionNotFoundError } from '../submissions/submissions.errors';
import type { CertificationStatusDto } from './dto/certification-status.response.dto';

@Injectable()
export class CertificationStatusService {
  constructor(
    private readonly skills: SkillRepository,
    private readonly certifications: CertificationRepository,
    private readonly submissions: SubmissionRepository,
  ) {}

  /** The version named, or the skill's listed version when `version` is omitted. */
  async forSkill(author: string, name: string, version?: string): Promise<CertificationStatusDto> {
    const v = await findVersion(this.skills, author, name, version);
    return certificationStatus(kazmaSkillId(author, name, v.version), await this.certifications.current(v.id));
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
      const submission = await this.submissions.newestLive(author, name, version);
      if (!submission) throw err;
      return quarantined(submission);
    }
  }

  /** Kazma's `status <submission_id>`: quarantined until claimed, then the published version's. */
  async forSubmission(id: string): Promise<CertificationStatusDto> {
    const submission = await this.submissions.byId(id);
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
  const report = decodeOptionalReport(submission.report);
  return {
    skill_id: ref,
    level: 'none',
    issued_at: null,
    expires_at: null,
    requirements_met: report?.requirementsMet ?? {},
    status: expired ? 'expired' : 'quarantined',
    policy_version: null,
    report,
  };
}

export function certificationStatus(skillId: string, cert: Certification | null): CertificationStatusDto {
  const status = statusNow(cert);
  return {
    skill_id: skillId,
    level: status === 'certified' ? (cert?.level ?? 'none') : 'none',
    issued_at: cert?.issuedAt?.toISOString() ?? null,
    expires_at: cert?.expiresAt?.toISOString() ?? null,
    requirements_met: cert?.requirementsMet ?? {},
    status,
    policy_version: cert?.policyVersion ?? CURRENT_POLICY,
    report: decodeOptionalReport(cert?.report),
  };
}
