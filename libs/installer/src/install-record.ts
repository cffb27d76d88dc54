/**
 * What the installer leaves beside an installed skill, besides its files: the hub certificate
 * (the signed authority) and this record: every installed file with its SHA-256, and how the
 * Kazma manifest was re-signed for the local host, so `skillhub verify` can tell that the two
 * re-signed fields are the only difference from the certified bytes. The record is not signed:
 * verify trusts nothing in it that it cannot check against the certificate.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CERTIFICATE_FILE = '.skillhub-certificate.json';
export const INSTALL_RECORD_FILE = '.skillhub-files.json';
/** Kazma's own install meta (read by its Agent Skills activation check). */
export const KAZMA_INSTALL_META = '.kazma-install.json';

/** Files the installer writes itself; the certificate does not name them. */
export const INSTALLER_FILES: readonly string[] = [CERTIFICATE_FILE, INSTALL_RECORD_FILE, KAZMA_INSTALL_META];

export interface ManifestResign {
  /** The manifest's path in the skill folder (`skill_manifest.yaml`). */
  path: string;
  /** The file whose checksum the manifest carries: what Kazma's loader loads and checks. */
  entryPoint: string;
  /** The certified manifest, byte for byte (UTF-8): the installed one is rebuilt from it. */
  certified: string;
  /** False when there was no local KAZMA_SECRET and the signature was removed. */
  signedLocally: boolean;
}

export interface InstallRecord {
  /** `author/name`, as the certificate names it. */
  skill: string;
  version: string;
  /** The hub it came from. */
  hub: string;
  /** Every installed file (the installer's own excepted) → its SHA-256, as written. */
  files: Record<string, string>;
  /** Null for formats without Kazma signing, and for Kazma skills with no file to load. */
  resigned: ManifestResign | null;
}

/** The record of an installed folder; null when there is none, an error when it is unreadable. */
export function readInstallRecord(dir: string): InstallRecord | null {
  let text: string;
  try {
    text = readFileSync(join(dir, INSTALL_RECORD_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const value: unknown = JSON.parse(text);
  if (!isInstallRecord(value)) throw new Error(`${INSTALL_RECORD_FILE} is not an install record`);
  return value;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

function isInstallRecord(value: unknown): value is InstallRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<InstallRecord>;
  const files = record.files;
  const resigned = record.resigned;
  return (
    isText(record.skill) &&
    isText(record.version) &&
    typeof record.hub === 'string' &&
    typeof files === 'object' &&
    files !== null &&
    Object.values(files).every(isText) &&
    (resigned === null ||
      (typeof resigned === 'object' &&
        resigned !== undefined &&
        isText(resigned.path) &&
        isText(resigned.entryPoint) &&
        typeof resigned.certified === 'string' &&
        typeof resigned.signedLocally === 'boolean'))
  );
}
