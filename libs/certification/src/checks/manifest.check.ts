/**
 * C1 manifest: the parser's problems become findings (errors fail, warnings are advisory), plus
 * Kazma's description and license requirements and the manifest's part of Kazma's score.
 * A licence is a Kazma rule (its parser refuses a manifest without one, as Kazma's loader does):
 * SwarmKit has no licence field and Agent Skills make it optional, so for them a missing licence is
 * shown, and `license_present` says so, but it fails nothing.
 */
import { hasErrors, type Problem } from '@skillhub/errors';
import { manifestSha256 } from '@skillhub/signing';
import type { Bundle } from '@skillhub/bundle';
import type { NormalizedSkill, SkillFormat } from '@skillhub/skill-formats';
import type { Check } from '../check';
import { newFinding, type Finding, type Severity } from '../finding';
import { KAZMA_PENALTIES, type ScoreDeduction } from '../kazma-score';

/** Kazma's description_complete. */
const MIN_DESCRIPTION_LENGTH = 20;

/** The parser's words for a permission Kazma does not know (skill-formats' kazma-manifest.parser.ts). */
const UNKNOWN_PERMISSION = 'Unknown permission';
/** The parser ends a message with the line of the field when it knows it. */
const LINE_SUFFIX = /\(line (\d+)\)\s*$/;
/** A problem's path starts with a file name (`SKILL.md#name`) or names a request field (`version`), which has no dot. */
const FILE_NAME = /\.[A-Za-z0-9]+$/;
/** LICENSE, LICENSE.md, LICENSE-MIT, COPYING... at the bundle's root. */
const LICENSE_FILE = /^(?:licen[cs]e|copying)(?:[.-][\w.-]*)?$/i;

export const manifestCheck: Check = {
  id: 'C1',
  decides: ['manifest_valid', 'description_complete', 'license_present'],
  appliesToManifestOnly: true,
  run(input) {
    const { skill, parseProblems } = input;
    const findings = parseProblems.map(problemFinding);
    const valid = skill !== null && !hasErrors(parseProblems);
    if (skill === null && !hasErrors(parseProblems)) {
      findings.push(
        newFinding({
          check: 'C1',
          code: 'manifest-error',
          severity: 'high',
          message: 'No skill was parsed from the bundle, yet no parse error was reported.',
          fixHint:
            'Check that the bundle holds exactly one manifest (skill_manifest.yaml, SKILL.md or a SwarmKit YAML).',
        }),
      );
    }
    const deductions = scoreDeductions(parseProblems, valid);
    if (skill === null) return { findings, deductions, requirements: { manifest_valid: false } };

    const descriptionComplete = [...skill.description.trim()].length >= MIN_DESCRIPTION_LENGTH;
    if (!descriptionComplete) findings.push(shortDescription(skill.manifestPath));
    const licensePresent = (skill.license ?? '').trim() !== '' || (!input.manifestOnly && hasLicenseFile(input.bundle));
    if (!licensePresent) findings.push(missingLicense(skill));
    return {
      findings,
      deductions,
      requirements: {
        manifest_valid: valid,
        description_complete: descriptionComplete,
        license_present: licensePresent,
      },
      evidence: { format: skill.format, manifestSha256: manifestSha256(skill.manifest) },
    };
  },
};

function problemFinding(problem: Problem): Finding {
  const error = problem.severity === 'error';
  return newFinding({
    check: 'C1',
    code: error ? 'manifest-error' : 'manifest-warning',
    severity: error ? 'high' : 'low',
    ...problemLocation(problem),
    message: problem.message,
    fixHint: error
      ? 'Correct the manifest as the message says and publish again; every problem is listed at once.'
      : 'Not required for certification, but correct it so that the manifest means what it says.',
  });
}

function problemLocation(problem: Problem): { file: string | null; line: number | null } {
  const head = problem.path.split('#')[0] ?? '';
  const line = LINE_SUFFIX.exec(problem.message);
  return { file: FILE_NAME.test(head) ? head : null, line: line ? Number(line[1]) : null };
}

function scoreDeductions(problems: readonly Problem[], valid: boolean): ScoreDeduction[] {
  const deductions: ScoreDeduction[] = problems
    .filter((problem) => problem.message.startsWith(UNKNOWN_PERMISSION))
    .map((problem) => ({
      points: KAZMA_PENALTIES.unknownPermission,
      finding: newFinding({
        check: 'C1',
        code: 'score-unknown-permission',
        severity: 'info',
        ...problemLocation(problem),
        message: `Kazma's score −${KAZMA_PENALTIES.unknownPermission}: ${problem.message}`,
        fixHint: 'Remove the permission, or spell it as one of the permissions Kazma knows.',
      }),
    }));
  if (!valid) {
    deductions.push({
      points: KAZMA_PENALTIES.invalidManifest,
      finding: newFinding({
        check: 'C1',
        code: 'score-invalid-manifest',
        severity: 'info',
        message: `Kazma's score −${KAZMA_PENALTIES.invalidManifest}: the manifest is invalid (see the C1 errors).`,
        fixHint: 'Fix the C1 errors.',
      }),
    });
  }
  return deductions;
}

function shortDescription(manifestPath: string): Finding {
  return newFinding({
    check: 'C1',
    code: 'description-incomplete',
    severity: 'medium',
    file: manifestPath,
    message: `The description is shorter than ${MIN_DESCRIPTION_LENGTH} characters (Kazma's description_complete).`,
    fixHint: 'Say in a full sentence what the skill does and when to use it.',
  });
}

/** What a missing licence means in each format, and where the format lets one be named. */
const LICENSE_RULES: Readonly<Record<SkillFormat, { severity: Severity; rule: string; where: string }>> = {
  // Unreached while the parser refuses a Kazma manifest without one; kept so the record is total.
  kazma: {
    severity: 'high',
    rule: 'Kazma requires one',
    where: 'a `license` (an SPDX id such as MIT) to the manifest',
  },
  swarmkit: {
    severity: 'low',
    rule: 'SwarmKit skills have no licence field, so this fails nothing',
    where: 'a LICENSE file at the root of the bundle',
  },
  'agent-skill': {
    severity: 'low',
    rule: 'the Agent Skills format makes it optional, so this fails nothing',
    where: 'a `license` to the front matter of SKILL.md, or a LICENSE file at the root of the bundle',
  },
};

function missingLicense(skill: NormalizedSkill): Finding {
  const { severity, rule, where } = LICENSE_RULES[skill.format];
  return newFinding({
    check: 'C1',
    code: 'license-missing',
    severity,
    file: skill.manifestPath,
    message: `The skill names no license: the manifest has none and the bundle's root holds no LICENSE or COPYING file (${rule}).`,
    fixHint: `Say under which terms the skill may be used: add ${where}.`,
  });
}

const hasLicenseFile = (bundle: Bundle): boolean =>
  bundle.files.some((file) => !file.path.includes('/') && LICENSE_FILE.test(file.path) && file.content.length > 0);
