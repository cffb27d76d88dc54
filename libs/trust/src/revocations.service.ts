/**
 * Revoking a version: a log entry first (its index is recorded), then the revocation
 * row and the certification's status, all in the caller's transaction, so the badge,
 * the certified list and the signed revocation list change in the same commit.
 */
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DomainError } from '@skillhub/errors';
import { CertificationRepository, RevocationRepository } from '@skillhub/database';
import { canonicalJson } from '@skillhub/signing';
import { TransparencyLog } from './transparency-log.service';

export class AlreadyRevokedError extends DomainError {
  constructor(ref: string) {
    super('conflict', 'CERTIFICATE.CONFLICT', `${ref} is already revoked.`);
  }
}

export interface RevocationSubject {
  versionId: string;
  /** `author/name`. */
  skill: string;
  version: string;
  bundleSha256: string;
}

@Injectable()
export class RevocationsService {
  constructor(
    private readonly log: TransparencyLog,
    private readonly revocations: RevocationRepository,
    private readonly certifications: CertificationRepository,
  ) {}

  async revoke(m: EntityManager, subject: RevocationSubject, reason: string, revokedBy: string): Promise<number> {
    if (await this.revocations.isRevoked(subject.versionId, m)) {
      throw new AlreadyRevokedError(`${subject.skill}@${subject.version}`);
    }
    const logIndex = await this.log.append(m, () => ({
      kind: 'revocation',
      data: canonicalJson({
        type: 'revocation',
        skill: subject.skill,
        version: subject.version,
        bundleSha256: subject.bundleSha256,
        reason,
        revokedAt: new Date().toISOString(),
      }),
      summary: { skill: subject.skill, version: subject.version, reason },
    }));
    await this.revocations.add(m, { versionId: subject.versionId, reason, revokedBy, logIndex });
    await this.certifications.revokeVersion(m, subject.versionId);
    return logIndex;
  }
}
