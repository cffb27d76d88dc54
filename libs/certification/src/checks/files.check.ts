/**
 * C5 files: the SHA-256 of every file, recomputed from its bytes rather than copied from the
 * bundle listing, since these are the digests a certificate pins. Size and entry limits are the
 * bundle reader's (configured per deployment); here a listing that disagrees with the bytes fails.
 */
import { sha256Hex } from '@skillhub/bundle';
import type { Check } from '../check';
import { newFinding, type Finding } from '../finding';

export const filesCheck: Check = {
  id: 'C5',
  decides: [],
  appliesToManifestOnly: false,
  run({ bundle }) {
    const findings: Finding[] = [];
    const files = bundle.files.map((file) => {
      const sha256 = sha256Hex(file.content);
      if (sha256 !== file.sha256 || file.content.length !== file.size) {
        findings.push(
          newFinding({
            check: 'C5',
            code: 'digest-mismatch',
            severity: 'critical',
            file: file.path,
            message: `The bundle lists ${file.path} as ${file.size} bytes with SHA-256 ${file.sha256}, but its bytes are ${file.content.length} with SHA-256 ${sha256}.`,
            fixHint: 'Publish the bundle again; if it keeps happening, report it to the hub operators.',
          }),
        );
      }
      return { path: file.path, size: file.content.length, sha256 };
    });
    return { findings, evidence: { files } };
  },
};
