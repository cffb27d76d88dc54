/** The words a certification's verdict is written in, apart from the entity so that others (skills' trigger-kept columns) can name them. */
export const CERTIFICATION_STATUSES = ['pending', 'certified', 'failed', 'inconclusive', 'revoked', 'expired'] as const;
export type CertificationStatus = (typeof CERTIFICATION_STATUSES)[number];
export const CERTIFICATION_LEVELS = ['none', 'basic', 'standard'] as const;
export type CertificationLevel = (typeof CERTIFICATION_LEVELS)[number];
