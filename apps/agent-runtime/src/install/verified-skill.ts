/** An installed skill with the certificate the installer verified: what everything the runtime offers is decided from. */
import type { CertificateStatement } from '@skillhub/signing';
import type { NormalizedSkill } from '@skillhub/skill-formats';

export interface VerifiedSkill {
  /** `author/name`. */
  ref: string;
  version: string;
  /** The installed folder. */
  path: string;
  skill: NormalizedSkill;
  statement: CertificateStatement;
}
