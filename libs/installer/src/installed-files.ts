/**
 * An installed skill checked again (`skillhub verify`): its certificate (kept beside it at
 * install) must be signed by a trusted key valid when it was issued and not be expired; the
 * folder must be the one the certificate names (its folder name, its record's skill and
 * version); every file on disk must be exactly a certified one, the re-signed Kazma manifest
 * being rebuilt from the certified bytes with only `checksum` and `signature` changed; and the
 * version must not be revoked, by the hub's current list when it can be reached, else by the
 * newest list seen before (and the verdict says which).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { type BundleFile, sha256Hex } from '@skillhub/bundle';
import {
  assertIssued,
  decodeStatement,
  kazmaChecksum,
  verifyCertificate,
  verifyKazmaSignature,
  type CertificateStatement,
  type TrustedKey,
  revocationOf,
  verifyRevocationList,
  type RevocationList,
} from '@skillhub/signing';
import { CERTIFICATE_FILE, INSTALLER_FILES, readInstallRecord, type InstallRecord } from './install-record';
import { resignKazmaManifest, signatureFields } from './kazma-manifest-resign';
import type { TrustState } from './trust-state';

export interface VerifyInstalledOptions {
  keys: readonly TrustedKey[];
  /** The newest revocation list seen; a fresher one from the hub replaces it. */
  state: TrustState;
  /** The hub's revocation list as fetched now; null when the hub could not be reached. */
  hubRevocations: { envelope: unknown } | null;
  /** The host's KAZMA_SECRET: with it, the re-signed manifest's signature is checked too. */
  kazmaSecret?: string;
  now?: Date;
}

export type InstalledRefusal =
  'unsigned' | 'expired' | 'not-yet-valid' | 'wrong-skill' | 'tampered' | 'revoked' | 'stale-revocations';

export interface RevocationsChecked {
  /** `hub`: the list served now; `last-seen`: the hub was unreachable, the newest list seen before; `none`: neither. */
  source: 'hub' | 'last-seen' | 'none';
  issuedAt: string | null;
}

export type InstalledVerdict =
  | { ok: true; statement: CertificateStatement; revocations: RevocationsChecked; warnings: string[] }
  | { ok: false; reason: InstalledRefusal; message: string };

class Refusal extends Error {
  constructor(
    readonly reason: InstalledRefusal,
    message: string,
  ) {
    super(message);
  }
}

export function verifyInstalledSkill(dir: string, options: VerifyInstalledOptions): InstalledVerdict {
  try {
    const now = options.now ?? new Date();
    const warnings: string[] = [];
    const statement = readCertificate(dir, options.keys, now);
    const record = readRecord(dir);
    checkSubject(dir, statement, record);
    checkFiles(dir, statement, record, options.kazmaSecret, warnings);
    const revocations = checkRevocations(statement, options, now, warnings);
    return { ok: true, statement, revocations, warnings };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, reason: err.reason, message: err.message };
    return { ok: false, reason: 'tampered', message: (err as Error).message };
  }
}

/**
 * Only the files: every file of the installed skill is exactly a certified one (by `statement`, which
 * the caller verified at install). Run before each start of a server that uses the folder, so a file
 * changed since is refused with its name. Null when they match; else why not.
 */
export function changedInstalledFiles(dir: string, statement: Pick<CertificateStatement, 'files'>): string | null {
  try {
    checkFiles(dir, statement, readRecord(dir), undefined, []);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

function readCertificate(dir: string, keys: readonly TrustedKey[], now: Date): CertificateStatement {
  let statement: CertificateStatement;
  try {
    const envelope = JSON.parse(readFileSync(join(dir, CERTIFICATE_FILE), 'utf8')) as { payload?: string };
    const claimed = decodeStatement(Buffer.from(String(envelope.payload), 'base64'));
    statement = verifyCertificate(envelope, keys, new Date(claimed.issuedAt));
  } catch (err) {
    throw new Refusal('unsigned', `certificate: ${(err as Error).message}`);
  }
  if (Date.parse(statement.expiresAt) <= now.getTime()) {
    throw new Refusal('expired', `the certificate expired at ${statement.expiresAt}`);
  }
  try {
    assertIssued('certificate', statement.issuedAt, now);
  } catch (err) {
    throw new Refusal('not-yet-valid', (err as Error).message);
  }
  return statement;
}

function readRecord(dir: string): InstallRecord | null {
  try {
    return readInstallRecord(dir);
  } catch (err) {
    throw new Refusal('tampered', `the install record is unreadable: ${(err as Error).message}`);
  }
}

/** A certified folder and certificate copied under another skill's name are someone else's skill. */
function checkSubject(dir: string, statement: CertificateStatement, record: InstallRecord | null): void {
  const certified = `${statement.skill}@${statement.version}`;
  const name = statement.skill.split('/')[1]!;
  const folder = basename(dir);
  if (folder !== name) {
    throw new Refusal('wrong-skill', `the folder is named ${folder}, the certificate is for ${certified}`);
  }
  if (record && (record.skill !== statement.skill || record.version !== statement.version)) {
    throw new Refusal(
      'wrong-skill',
      `the install record says ${record.skill}@${record.version}, the certificate is for ${certified}`,
    );
  }
}

function checkFiles(
  dir: string,
  statement: Pick<CertificateStatement, 'files'>,
  record: InstallRecord | null,
  kazmaSecret: string | undefined,
  warnings: string[],
): void {
  const onDisk = new Map(
    listFiles(dir)
      .filter((path) => !INSTALLER_FILES.includes(path))
      .map((path) => [path, readFileSync(join(dir, path))]),
  );
  const resigned = record?.resigned ?? null;
  const paths = new Set([...onDisk.keys(), ...Object.keys(statement.files)]);
  const changed = [...paths].filter((path) => {
    const content = onDisk.get(path);
    if (content === undefined || !(path in statement.files)) return true;
    if (path === resigned?.path) return !isResignedFrom(content, resigned.certified, statement.files[path]!);
    return sha256Hex(content) !== statement.files[path];
  });
  if (changed.length) {
    const pyc = changed.some((path) => /(^|\/)__pycache__\//.test(path));
    throw new Refusal(
      'tampered',
      `files differ from the certificate: ${changed.slice(0, 10).join(', ')}` +
        (pyc
          ? ' (Python writes __pycache__ when it imports a skill: delete it, or set PYTHONDONTWRITEBYTECODE=1)'
          : ''),
    );
  }
  if (resigned) checkLocalSignature(onDisk.get(resigned.path)!, onDisk, resigned.entryPoint, kazmaSecret, warnings);
}

/**
 * The installed manifest must be the certified one (by its certified digest) with only the
 * checksum of the entry file as it is now and the signature it holds written in, by the same
 * rewrite the installer made: so no other byte can differ.
 */
function isResignedFrom(installed: Buffer, certified: string, certifiedSha256: string): boolean {
  if (sha256Hex(Buffer.from(certified, 'utf8')) !== certifiedSha256) return false;
  const { checksum, signature } = signatureFields(installed.toString('utf8'));
  if (typeof checksum !== 'string' || (signature !== undefined && typeof signature !== 'string')) return false;
  try {
    return resignKazmaManifest(certified, { checksum, signature: signature ?? null }) === installed.toString('utf8');
  } catch {
    return false;
  }
}

/** What a Kazma host will check on load, checked here with the host's secret when there is one. */
function checkLocalSignature(
  manifest: Buffer,
  onDisk: ReadonlyMap<string, Buffer>,
  entryPoint: string,
  kazmaSecret: string | undefined,
  warnings: string[],
): void {
  const { checksum, signature } = signatureFields(manifest.toString('utf8'));
  const entry = onDisk.get(entryPoint);
  if (entry === undefined || checksum !== kazmaChecksum(entry)) {
    throw new Refusal('tampered', `the manifest's checksum is not the SHA-256 of ${entryPoint}`);
  }
  if (signature === undefined) {
    warnings.push('skill_manifest.yaml is unsigned (installed without KAZMA_SECRET): Kazma loads it with a warning');
    return;
  }
  if (!kazmaSecret) {
    warnings.push('the manifest signature was not checked: no KAZMA_SECRET');
    return;
  }
  const verdict = verifyKazmaSignature({
    entryPointBytes: entry,
    checksum: checksum as string,
    signature: signature as string,
    secrets: [kazmaSecret],
  });
  if (verdict.status !== 'verified') {
    throw new Refusal('tampered', "the manifest's signature does not verify with this host's KAZMA_SECRET");
  }
}

function checkRevocations(
  statement: CertificateStatement,
  options: VerifyInstalledOptions,
  now: Date,
  warnings: string[],
): RevocationsChecked {
  const { list, source } = options.hubRevocations
    ? { list: freshList(options.hubRevocations.envelope, options, now), source: 'hub' as const }
    : lastSeenList(options, warnings);
  const revoked = list && revocationOf(list, statement);
  if (revoked) {
    throw new Refusal(
      'revoked',
      `${revoked.skill}@${revoked.version} was revoked at ${revoked.revokedAt}: ${revoked.reason}` +
        (source === 'last-seen' ? ` (list issued ${list.issuedAt}; hub unreachable)` : ''),
    );
  }
  return { source, issuedAt: list?.issuedAt ?? null };
}

/** The hub's current list: genuine, unexpired, and not older than the newest seen before; then kept. */
function freshList(envelope: unknown, options: VerifyInstalledOptions, now: Date): RevocationList {
  let list: RevocationList;
  try {
    list = verifyRevocationList(envelope, options.keys);
  } catch (err) {
    throw new Refusal('stale-revocations', `revocation list: ${(err as Error).message}`);
  }
  if (Date.parse(list.expiresAt) <= now.getTime()) {
    throw new Refusal('stale-revocations', `revocation list: expired at ${list.expiresAt}`);
  }
  try {
    assertIssued('revocation list', list.issuedAt, now);
  } catch (err) {
    throw new Refusal('stale-revocations', (err as Error).message);
  }
  const lastSeen = options.state.revocationsSeenAt();
  if (lastSeen !== null && !(Date.parse(list.issuedAt) >= Date.parse(lastSeen))) {
    throw new Refusal(
      'stale-revocations',
      `revocation list: issued ${list.issuedAt}, older than the one seen before (${lastSeen})`,
    );
  }
  options.state.saveRevocations({ issuedAt: list.issuedAt, envelope });
  return list;
}

/** Offline: the newest list seen before still refuses what it revoked; the warning says how old it is. */
function lastSeenList(
  options: VerifyInstalledOptions,
  warnings: string[],
): { list: RevocationList | null; source: 'last-seen' | 'none' } {
  const seen = options.state.revocations();
  if (seen?.envelope !== undefined) {
    try {
      const list = verifyRevocationList(seen.envelope, options.keys);
      warnings.push(
        `could not check revocations: hub unreachable; checked against the list seen last, issued ${list.issuedAt}`,
      );
      return { list, source: 'last-seen' };
    } catch (err) {
      warnings.push(`the revocation list seen last is unreadable: ${(err as Error).message}`);
    }
  }
  warnings.push('could not check revocations: hub unreachable, and no revocation list was seen before');
  return { list: null, source: 'none' };
}

/**
 * The files of an installed folder as the certificate covers them, for a folder
 * `verifyInstalledSkill` passed: the re-signed Kazma manifest as certified, not as re-signed.
 */
export function certifiedFilesOf(dir: string): BundleFile[] {
  const resigned = readInstallRecord(dir)?.resigned ?? null;
  return listFiles(dir)
    .filter((path) => !INSTALLER_FILES.includes(path))
    .map((path) => {
      const content = path === resigned?.path ? Buffer.from(resigned.certified, 'utf8') : readFileSync(join(dir, path));
      const mode = statSync(join(dir, path)).mode & 0o777;
      return { path, content, size: content.length, sha256: sha256Hex(content), mode };
    });
}

function listFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(root, path);
    return [relative(root, path).split(sep).join('/')];
  });
}
