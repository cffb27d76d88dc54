import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256, the one digest spelling used in reports, certificates and manifests. */
export const sha256Hex = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');
