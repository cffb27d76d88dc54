/**
 * A quarantined Kazma submission: the checks that apply to a manifest alone, stored on the
 * submission (it can never be certified before an owner claims it, which publishes it).
 */
import { Injectable } from '@nestjs/common';
import { stringify } from 'yaml';
import { sha256Hex, type Bundle } from '@skillhub/bundle';
import { CERTIFICATION_POLICY_VERSION, datedReport } from '@skillhub/certification';
import { SubmissionRepository } from '@skillhub/database';
import type { CertifySubmissionJobPayload } from '@skillhub/queue';
import { parseKazmaManifestObject } from '@skillhub/skill-formats';
import type { CertifyOutcome } from './certification-recorder.service';
import { SkillJudgeService } from './skill-judge.service';

@Injectable()
export class SubmissionJudge {
  constructor(
    private readonly submissions: SubmissionRepository,
    private readonly judge: SkillJudgeService,
  ) {}

  async judgeSubmission(job: CertifySubmissionJobPayload): Promise<CertifyOutcome> {
    const submission = await this.submissions.byId(job.submissionId);
    if (!submission) return 'missing';
    if (submission.status !== 'quarantined' || submission.report) return 'already-judged';
    const content = Buffer.from(stringify(submission.manifest), 'utf8');
    const bundle: Bundle = {
      sha256: sha256Hex(content),
      size: content.length,
      uncompressedSize: content.length,
      rootFolder: submission.name,
      files: [{ path: 'skill_manifest.yaml', size: content.length, sha256: sha256Hex(content), mode: 0o644, content }],
    };
    const verdict = await this.judge.judge({
      bundle,
      parsed: parseKazmaManifestObject(submission.manifest),
      namespace: { slug: submission.namespaceSlug, ownerMatches: false },
      version: '0.0.0',
      kazmaSecrets: [],
      publisherKeys: [],
      publishedAt: submission.createdAt,
      popularNames: await this.judge.popularNames(null),
      policyVersion: CERTIFICATION_POLICY_VERSION,
      manifestOnly: true,
    });
    // Never certified, so never dated: stored in the one report shape, without issue or expiry.
    await this.submissions.recordReport(submission.id, datedReport(verdict, new Date(), 0));
    return verdict.status;
  }
}
