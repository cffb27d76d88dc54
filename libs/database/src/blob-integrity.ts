/**
 * A stored bundle is served only if its bytes still hash to the digest it is stored under: a blob
 * changed in the database (a restore gone wrong, a disk fault, a hand edit) is refused with a 500
 * problem and counted, so the operator's alerting sees it; no client ever gets the changed bytes.
 */
import { createHash } from 'node:crypto';
import { Counter, type Registry } from 'prom-client';
import { DomainError } from '@skillhub/errors';

export const blobDigestMismatches = new Counter({
  name: 'skillhub_blob_digest_mismatches_total',
  help: 'Stored bundles whose bytes no longer hash to their digest, refused when read.',
  registers: [],
});

/** Adds the database's metrics to a process's registry. */
export function registerDatabaseMetrics(registry: Registry): void {
  registry.registerMetric(blobDigestMismatches);
}

export class CorruptBlobError extends DomainError {
  constructor(sha256: string) {
    super(
      'internal',
      'BUNDLE.CORRUPT',
      'The stored bundle no longer matches its SHA-256, so it is not served; the operator is alerted.',
      [{ path: 'bundle', message: `the bytes stored for ${sha256} hash to something else`, severity: 'error' }],
    );
  }
}

/** The bytes, once they are proven to be the blob named `sha256`. */
export function verifiedBlob(sha256: string, content: Buffer): Buffer {
  if (createHash('sha256').update(content).digest('hex') === sha256) return content;
  blobDigestMismatches.inc();
  throw new CorruptBlobError(sha256);
}
