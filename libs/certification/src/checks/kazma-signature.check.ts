/**
 * C3 checksum and C4 HMAC: Kazma v1 signing, verified exactly as Kazma's loader does
 * (`verifyKazmaSignature`), one verification read by two checks so each explains its own half.
 */
import type { BundleFile } from '@skillhub/bundle';
import { kazmaChecksum, verifyKazmaSignature, type KazmaVerification } from '@skillhub/signing';
import type { NormalizedSkill, SkillFormat } from '@skillhub/skill-formats';
import type { CertificationInput } from '../certification-input';
import { isSkip, parsedSkill, skip, type Check, type CheckInput, type CheckOutcome, type Skip } from '../check';
import { newFinding, type Finding, type FindingSpec } from '../finding';
import { findFile, lineOfFirstMatch } from '../scanned-text';

interface Verified {
  entry: BundleFile;
  verification: KazmaVerification;
}

const FORMAT_LABELS: Readonly<Record<Exclude<SkillFormat, 'kazma'>, string>> = {
  swarmkit: 'SwarmKit skills',
  'agent-skill': 'Agent Skills',
};

const SIGN_HINT =
  'Sign the skill with `kazma hub sign` (it writes `checksum` and `signature` into the manifest) using the secret registered for your namespace.';

export const checksumCheck: Check = {
  id: 'C3',
  decides: ['checksum_valid'],
  appliesToManifestOnly: false,
  run(input) {
    const skill = kazmaSkill(input);
    if (isSkip(skill)) return skill;
    if (skill.entryPoint === null) return withoutEntryPoint(input, skill);
    const verified = verify(input, skill, skill.entryPoint);
    if (isSkip(verified)) return verified;
    const { entry, verification } = verified;
    const outcome = (findings: Finding[]): CheckOutcome => ({
      findings,
      requirements: { checksum_valid: findings.length === 0 },
      evidence: { entryPointChecksum: kazmaChecksum(entry.content) },
    });
    const unsigned =
      verification.status === 'unsigned' ||
      (verification.status === 'bad-signature' && verification.reason === 'missing-checksum');
    if (unsigned) {
      return outcome([
        newFinding({
          check: 'C3',
          code: 'unsigned',
          severity: 'medium',
          file: skill.manifestPath,
          message: 'The manifest has no checksum: the skill is unsigned (Kazma loads it with a warning).',
          fixHint: SIGN_HINT,
        }),
      ]);
    }
    if (verification.status !== 'tampered') return outcome([]);
    const malformed = verification.reason === 'malformed-checksum';
    return outcome([
      newFinding({
        check: 'C3',
        code: verification.reason,
        severity: 'critical',
        file: malformed ? skill.manifestPath : entry.path,
        line: malformed ? fieldLine(input, skill, 'checksum') : null,
        message: malformed
          ? "The manifest's checksum is not 64 lowercase hex digits (a SHA-256)."
          : `The SHA-256 of ${entry.path} is ${kazmaChecksum(entry.content)}, not the manifest's checksum: the file may have been tampered with.`,
        fixHint: malformed
          ? SIGN_HINT
          : `If you changed ${entry.path} on purpose, sign the skill again with \`kazma hub sign\`; otherwise do not publish these files.`,
      }),
    ]);
  },
};

/** Every way C4 can end other than verified (a tampered checksum stops at C3). */
type HmacFailure =
  'unsigned' | 'checksum-only' | 'no-secret' | Extract<KazmaVerification, { status: 'bad-signature' }>['reason'];

const HMAC_FINDINGS: Readonly<Record<HmacFailure, Omit<FindingSpec, 'check' | 'file' | 'line'>>> = {
  unsigned: {
    code: 'unsigned',
    severity: 'medium',
    message: 'The manifest has no signature: the skill is unsigned.',
    fixHint: SIGN_HINT,
  },
  'checksum-only': {
    code: 'unsigned',
    severity: 'medium',
    message: 'The manifest has a checksum but no signature: the skill is unsigned.',
    fixHint: SIGN_HINT,
  },
  'no-secret': {
    code: 'no-secret',
    severity: 'high',
    message:
      'The manifest is signed, but no Kazma secret is available to verify it (none registered for the namespace, none on the hub).',
    fixHint: 'Register the secret `kazma hub sign` used for your namespace with the hub, or remove the signature.',
  },
  'missing-checksum': {
    code: 'missing-checksum',
    severity: 'high',
    message: 'The manifest has a signature but no checksum, so the signature cannot be verified.',
    fixHint: SIGN_HINT,
  },
  'malformed-signature': {
    code: 'malformed-signature',
    severity: 'high',
    message: "The manifest's signature is not 64 lowercase hex digits (an HMAC-SHA256).",
    fixHint: SIGN_HINT,
  },
  'no-matching-secret': {
    code: 'bad-signature',
    severity: 'high',
    message: "The signature does not verify with the namespace's registered Kazma secret nor with the hub's.",
    fixHint: 'Sign again with the secret registered for your namespace (or register the one you signed with).',
  },
  error: {
    code: 'verification-error',
    severity: 'high',
    message: 'The signature could not be verified: an error occurred while verifying.',
    fixHint: SIGN_HINT,
  },
};

export const hmacCheck: Check = {
  id: 'C4',
  decides: ['signature_valid'],
  appliesToManifestOnly: false,
  run(input) {
    const skill = kazmaSkill(input);
    if (isSkip(skill)) return skill;
    if (skill.entryPoint === null) {
      // Nothing runs and nothing claims a signature: there is nothing a signature could cover (see C3).
      if (nothingToSign(input, skill)) return { findings: [], requirements: { signature_valid: true } };
      return skip('the manifest declares no entry point, so there is no signature to verify (see C3)', 'See C3.');
    }
    const verified = verify(input, skill, skill.entryPoint);
    if (isSkip(verified)) return verified;
    const { verification } = verified;
    switch (verification.status) {
      case 'tampered':
        return skip(
          'the checksum did not verify (C3), so the signature was not looked at',
          'Fix the C3 finding first.',
        );
      case 'verified':
        return { findings: [], requirements: { signature_valid: true } };
      default: {
        const failure = verification.status === 'bad-signature' ? verification.reason : verification.status;
        const signed = failure !== 'unsigned' && failure !== 'checksum-only';
        const finding = newFinding({
          check: 'C4',
          ...HMAC_FINDINGS[failure],
          file: skill.manifestPath,
          line: signed ? fieldLine(input, skill, 'signature') : null,
        });
        return { findings: [finding], requirements: { signature_valid: false } };
      }
    }
  },
};

/** The skill when it is a Kazma one, the only format with v1 signing. */
function kazmaSkill(input: CertificationInput): NormalizedSkill | Skip {
  const skill = parsedSkill(input);
  if (isSkip(skill) || skill.format === 'kazma') return skill;
  return skip(
    `${FORMAT_LABELS[skill.format]} carry no Kazma checksum or signature; their files are pinned by SHA-256 (C5) in the hub certificate`,
    'Nothing to do: this format is certified without a publisher signature.',
  );
}

function verify(input: CertificationInput, skill: NormalizedSkill, entryPoint: string): Verified | Skip {
  const entry = findFile(input.bundle, entryPoint);
  if (!entry) return skip('there is no entry-point file to checksum (see C2)', 'Fix the C2 finding first.');
  return {
    entry,
    verification: verifyKazmaSignature({
      entryPointBytes: entry.content,
      checksum: signatureField(skill, 'checksum'),
      signature: signatureField(skill, 'signature'),
      secrets: input.kazmaSecrets,
    }),
  };
}

/**
 * Kazma lets a skill declare no entry point (its check-certification counts that as met). Such a
 * skill has nothing to checksum, so a checksum or signature it carries cannot have been made over
 * anything. When nothing in it runs either (no code file, no code in its text, only MCP servers the
 * hub pins by themselves), Kazma's signature would have nothing to cover: its files are pinned by
 * their SHA-256 in the hub's certificate (C5), and it is not held back as unsigned. Otherwise it is
 * unsigned.
 */
function withoutEntryPoint(input: CheckInput, skill: NormalizedSkill): CheckOutcome {
  if (nothingToSign(input, skill)) {
    const finding = newFinding({
      check: 'C3',
      code: 'nothing-to-sign',
      severity: 'info',
      file: skill.manifestPath,
      message:
        "The manifest declares no entry point and nothing in the skill runs: there is nothing for Kazma's checksum to cover; every file is pinned by its SHA-256 in the hub's certificate.",
      fixHint: 'Nothing to do. A skill that adds code declares its entry_point and is signed with `kazma hub sign`.',
    });
    return { findings: [finding], requirements: { checksum_valid: true } };
  }
  const claimsSignature = claimsKazmaSignature(skill);
  const finding = newFinding({
    check: 'C3',
    code: claimsSignature ? 'no-entry-point' : 'unsigned',
    severity: claimsSignature ? 'high' : 'medium',
    file: skill.manifestPath,
    message: claimsSignature
      ? 'The manifest carries a checksum or signature but declares no entry point, so neither can be verified.'
      : 'The manifest declares no entry point, so nothing is checksummed: the skill is unsigned.',
    fixHint: claimsSignature
      ? 'Declare the entry_point that `kazma hub sign` checksummed, or remove checksum and signature.'
      : 'Declare entry_point and sign the skill with `kazma hub sign` to reach standard.',
  });
  return { findings: [finding], requirements: { checksum_valid: false } };
}

const claimsKazmaSignature = (skill: NormalizedSkill): boolean =>
  signatureField(skill, 'checksum') !== undefined || signatureField(skill, 'signature') !== undefined;

/** No entry point, no signature claimed, and no code anywhere in the bundle: no file, no embedded code, no program. */
function nothingToSign(input: CheckInput, skill: NormalizedSkill): boolean {
  const { code } = input;
  return (
    skill.entryPoint === null &&
    !claimsKazmaSignature(skill) &&
    code.analyses.length === 0 &&
    code.commands.length === 0 &&
    [...code.kinds.values()].every((kind) => kind.kind === 'text' || kind.kind === 'inert')
  );
}

/**
 * An empty YAML value (`checksum:`) is an absent field, as in Kazma. Any other value is passed on
 * as it is: the verifier refuses what is not a hex string, whatever its type.
 */
function signatureField(skill: NormalizedSkill, key: 'checksum' | 'signature'): string | undefined {
  const value = skill.manifest[key];
  return value === undefined || value === null ? undefined : (value as string);
}

const fieldLine = (input: CertificationInput, skill: NormalizedSkill, key: string): number | null =>
  lineOfFirstMatch(input.bundle, skill.manifestPath, new RegExp(`^${key}\\s*:`, 'm'));
