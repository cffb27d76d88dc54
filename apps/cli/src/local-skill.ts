/** The offline commands' work: validate, sign (Kazma's scheme) and check certification of a skill folder. */
import type { KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { readBundle, sha256Hex } from '@skillhub/bundle';
import {
  CERTIFICATION_POLICY_VERSION,
  certificationInputFor,
  certify,
  type CertificationVerdict,
} from '@skillhub/certification';
import { loadCodeAnalyzer } from '@skillhub/code-analysis';
import type { Problem } from '@skillhub/errors';
import {
  kazmaChecksum,
  kazmaSignature,
  keyId,
  PUBLISHER_SIGNATURE_FILE,
  signPublisherFiles,
  type TrustedKey,
} from '@skillhub/signing';
import { KAZMA_MANIFEST_FILE, parseSkill, type NormalizedSkill } from '@skillhub/skill-formats';
import { CliError, EXIT } from './exit-codes';
import { asSkillFiles, packDir, readSkillDir } from './pack-dir';

export interface LocalContext {
  /** For formats without an author (SwarmKit, Agent Skills). */
  namespace?: string;
  /** For formats without a version (Agent Skills). */
  version?: string;
}

export interface ValidateResult {
  valid: boolean;
  skill: NormalizedSkill | null;
  problems: Problem[];
}

/** The folder's files as `pack` takes them, contents as bytes. */
const skillFiles = (dir: string) => asSkillFiles(readSkillDir(dir));

export function validateDir(dir: string, context: LocalContext = {}): ValidateResult {
  return validateFiles(skillFiles(dir), context);
}

/** The parsed skill, or the refusal that sends the user to `validate` for every problem. */
export function validSkill(result: ValidateResult, dir: string): NormalizedSkill {
  if (result.skill) return result.skill;
  throw new CliError(
    `not valid: ${result.problems[0]?.message ?? 'unknown problem'}`,
    EXIT.refused,
    `Run: skillhub validate ${dir}`,
  );
}

function validateFiles(files: ReturnType<typeof skillFiles>, context: LocalContext): ValidateResult {
  const { skill, problems } = parseSkill(files, { namespace: context.namespace ?? 'local', version: context.version });
  return { valid: skill !== null, skill, problems };
}

export interface SignResult {
  manifest: string;
  entryPoint: string;
  checksum: string;
  signature: string;
}

const ENTRY_POINT = /^([A-Za-z_][A-Za-z0-9_]*)(?:\.py|:[A-Za-z_][A-Za-z0-9_]*)?$/;

/**
 * Kazma's `hub sign`: checksum = hex SHA-256 of the entry-point file, signature = hex
 * HMAC-SHA256 of that hex string keyed by the secret; both written into skill_manifest.yaml.
 */
export function signDir(dir: string, secret: string): SignResult {
  if (secret === '') throw new CliError('no signing secret', EXIT.usage, 'Set KAZMA_SECRET or pass --secret.');
  const manifestPath = join(resolve(dir), KAZMA_MANIFEST_FILE);
  let text: string;
  try {
    text = readFileSync(manifestPath, 'utf8');
  } catch {
    throw new CliError(`${dir}: no ${KAZMA_MANIFEST_FILE}`, EXIT.usage, 'Only Kazma code skills are signed.');
  }
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    throw new CliError(`${KAZMA_MANIFEST_FILE}: ${doc.errors[0]!.message.split('\n')[0]}`, EXIT.refused);
  }
  const entry = doc.get('entry_point');
  const match = typeof entry === 'string' ? ENTRY_POINT.exec(entry) : null;
  if (!match) {
    throw new CliError(
      `${KAZMA_MANIFEST_FILE}: no valid entry_point`,
      EXIT.refused,
      'Write entry_point: module:Class.',
    );
  }
  const entryPoint = `${match[1]}.py`;
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(resolve(dir), entryPoint));
  } catch {
    throw new CliError(`entry_point names ${entryPoint}, which is not in ${dir}`, EXIT.refused);
  }
  const checksum = kazmaChecksum(bytes);
  const signature = kazmaSignature(checksum, secret);
  doc.set('checksum', checksum);
  doc.set('signature', signature);
  writeFileSync(manifestPath, doc.toString());
  return { manifest: manifestPath, entryPoint, checksum, signature };
}

export interface KeySignResult {
  file: string;
  /** `namespace/name@version` the signature is bound to. */
  skill: string;
  keyId: string;
  /** How many files the signature covers (every file but itself). */
  files: number;
}

/**
 * The publisher signature (C14): `.skillhub-signature.json` over every file `pack` would include.
 * Run it last: any later change, a Kazma `sign` included, invalidates it.
 */
export function signDirWithKey(
  dir: string,
  privateKey: KeyObject,
  context: LocalContext = {},
  now = new Date(),
): KeySignResult {
  const files = skillFiles(dir);
  const skill = validSkill(validateFiles(files, context), dir);
  if (skill.format !== 'kazma' && context.namespace === undefined) {
    throw new CliError(
      `a ${skill.format} skill names no namespace, and the signature binds the one it is published under`,
      EXIT.usage,
      'Pass --namespace <slug> (and --version for an Agent Skill), as you will to publish.',
    );
  }
  const id = `${skill.namespace}/${skill.name}@${skill.version}`;
  const digests = files.map((f) => ({ path: f.path, sha256: sha256Hex(f.content) }));
  const file = join(resolve(dir), PUBLISHER_SIGNATURE_FILE);
  writeFileSync(file, signPublisherFiles(id, digests, privateKey, now));
  const signed = files.filter((f) => f.path !== PUBLISHER_SIGNATURE_FILE).length;
  return { file, skill: id, keyId: keyId(privateKey), files: signed };
}

export interface CheckOptions extends LocalContext {
  kazmaSecrets: string[];
  /** Public keys to verify a publisher signature with (C14); the CLI passes the user's own. */
  publisherKeys?: TrustedKey[];
  now?: Date;
}

export interface CheckResult {
  /** What was judged; null when the folder does not parse (the report then says why). */
  skill: { id: string; format: NormalizedSkill['format']; namespace: string } | null;
  report: CertificationVerdict;
  /** Package probes are the hub's (they ask npm and PyPI); locally none are run. */
  packageProbes: 'not-run';
  packages: number;
}

/** The certifier's checks on the folder as it would be packed, with no package probes and no live tool probe. */
export async function checkDir(dir: string, options: CheckOptions): Promise<CheckResult> {
  const bundle = readBundle(packDir(dir));
  const namespace = options.namespace ?? 'local';
  const parsed = parseSkill(bundle.files, { namespace, version: options.version, folderName: bundle.rootFolder });
  const report = certify(
    certificationInputFor(bundle, parsed, {
      // Judged under the namespace it will be published in: a Kazma skill's author names it.
      namespace: { slug: parsed.skill?.namespace ?? namespace, ownerMatches: true },
      kazmaSecrets: options.kazmaSecrets.filter((s) => s !== ''),
      publisherKeys: options.publisherKeys,
      analyzer: await loadCodeAnalyzer(),
      policyVersion: CERTIFICATION_POLICY_VERSION,
      now: options.now ?? new Date(),
    }),
  );
  const packages = parsed.skill?.mcpServers.reduce((n, s) => n + s.packages.length, 0) ?? 0;
  const skill = parsed.skill && {
    id: `${parsed.skill.namespace}/${parsed.skill.name}@${parsed.skill.version}`,
    format: parsed.skill.format,
    namespace: parsed.skill.namespace,
  };
  return { skill, report, packageProbes: 'not-run', packages };
}
