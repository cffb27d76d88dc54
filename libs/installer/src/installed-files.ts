/**
 * An installed skill checked again, offline: its certificate (kept beside it at install)
 * must be signed by a trusted key valid when it was issued, not be expired, and name
 * exactly the files on disk with their SHA-256 — none changed, added or removed.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { decodeStatement, type CertificateStatement, type TrustedKey, verifyCertificate } from '@skillhub/signing';

export const CERTIFICATE_FILE = '.skillhub-certificate.json';
const INSTALL_META = '.kazma-install.json';

export type InstalledVerdict =
  | { ok: true; statement: CertificateStatement }
  | { ok: false; reason: 'unsigned' | 'expired' | 'tampered'; message: string };

export function verifyInstalledSkill(dir: string, keys: readonly TrustedKey[], now = new Date()): InstalledVerdict {
  let statement: CertificateStatement;
  try {
    const envelope = JSON.parse(readFileSync(join(dir, CERTIFICATE_FILE), 'utf8')) as { payload?: string };
    const claimed = decodeStatement(Buffer.from(String(envelope.payload), 'base64'));
    statement = verifyCertificate(envelope, keys, new Date(claimed.issuedAt));
  } catch (err) {
    return { ok: false, reason: 'unsigned', message: `certificate: ${(err as Error).message}` };
  }
  if (Date.parse(statement.expiresAt) <= now.getTime()) {
    return { ok: false, reason: 'expired', message: `the certificate expired at ${statement.expiresAt}` };
  }
  const onDisk = new Map(
    listFiles(dir)
      .filter((path) => path !== CERTIFICATE_FILE && path !== INSTALL_META)
      .map((path) => [
        path,
        createHash('sha256')
          .update(readFileSync(join(dir, path)))
          .digest('hex'),
      ]),
  );
  const paths = new Set([...onDisk.keys(), ...Object.keys(statement.files)]);
  const changed = [...paths].filter((path) => onDisk.get(path) !== statement.files[path]);
  if (changed.length) {
    return {
      ok: false,
      reason: 'tampered',
      message: `files differ from the certificate: ${changed.slice(0, 10).join(', ')}`,
    };
  }
  return { ok: true, statement };
}

function listFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(root, path);
    return [relative(root, path).split(sep).join('/')];
  });
}
