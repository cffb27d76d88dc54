/**
 * Which certification counts, said once for every reader in SQL or in code: the row under the
 * policy this hub runs (a version judged only under an older policy reads as pending until it
 * is judged again), and whether it holds a certificate now: certified and not past its expiry.
 * A revoked version's rows say `revoked` (the revocation writes them in its own transaction).
 */
import { CERTIFICATION_POLICY_VERSION } from '@skillhub/certification';
import type { Certification, CertificationStatus } from '../entities/certification.entity';

/** The policy every certification this hub reads or asks for is judged under. */
export const CURRENT_POLICY: number = CERTIFICATION_POLICY_VERSION;

/**
 * SQL: version `version` joined to its certification under the current policy, as `cert`
 * (a left join: a version may have no row under this policy yet). The policy is a literal, so
 * the planner sees it as it sees the unique (version, policy) index.
 */
export function currentCertificationJoin(version: string, cert: string): string {
  return `LEFT JOIN "certifications" ${cert} ON ${cert}."skill_version_id" = ${version}."id" AND ${cert}."policy_version" = ${CURRENT_POLICY}`;
}

/** SQL: certification `cert` holds a certificate now (NULL when there is no row: wrap in coalesce to negate). */
export function certifiedNowSql(cert: string): string {
  return `(${cert}."status" = 'certified' AND (${cert}."expires_at" IS NULL OR ${cert}."expires_at" > now()))`;
}

type Verdict = Pick<Certification, 'status' | 'expiresAt'>;

/** `certifiedNowSql` on a loaded row. */
export function isCertifiedNow(cert: Verdict | null, now: Date = new Date()): boolean {
  return cert?.status === 'certified' && (cert.expiresAt === null || cert.expiresAt.getTime() > now.getTime());
}

/** The status users see: no row yet is `pending`, and a certificate past its expiry is `expired`. */
export function statusNow(cert: Verdict | null, now: Date = new Date()): CertificationStatus {
  if (!cert) return 'pending';
  return cert.status === 'certified' && !isCertifiedNow(cert, now) ? 'expired' : cert.status;
}
