/**
 * C8 packages: the registry's answer for each package, as the worker's prober gave it. Absent,
 * withdrawn or on the other registry fails; not pinned blocks standard; no answer is never a pass.
 */
import type { PinnedPackage } from '@skillhub/signing';
import type { ProbeOutcome } from '../certification-input';
import { isSkip, parsedSkill, type Check } from '../check';
import { newFinding, type Finding, type FindingSpec } from '../finding';
import { packageLabel, probedPackages, type ProbedPackage } from './probed-packages';

type Judged = Pick<FindingSpec, 'code' | 'severity'> & { fixHint: string };

/** Every outcome but `found`, with the fix hint used when the prober gives none. */
const OUTCOMES: Readonly<Record<Exclude<ProbeOutcome, 'found'>, Judged>> = {
  not_found: {
    code: 'not-found',
    severity: 'high',
    fixHint: 'Name a package that exists on the registry, or remove the server that runs it.',
  },
  unpublished: {
    code: 'unpublished',
    severity: 'high',
    fixHint: 'Use a package that is still published: an unpublished name can be claimed by anyone.',
  },
  security_placeholder: {
    code: 'security-placeholder',
    severity: 'high',
    fixHint: 'Remove the package: the registry took it down.',
  },
  yanked: { code: 'yanked', severity: 'high', fixHint: 'Pin a release that is not yanked.' },
  wrong_registry: {
    code: 'wrong-registry',
    severity: 'high',
    fixHint: 'Run the package from the registry that publishes it.',
  },
  no_exact_version: { code: 'no-exact-version', severity: 'medium', fixHint: 'Pin an exact version.' },
  inconclusive: {
    code: 'inconclusive',
    severity: 'medium',
    fixHint: 'Nothing to change: the hub asks the registry again later.',
  },
};

/** Outcomes under which the package exists (so basic's packages_exist holds). */
const EXISTS: readonly ProbeOutcome[] = ['found', 'no_exact_version'];

export const packagesCheck: Check = {
  id: 'C8',
  decides: ['packages_exist', 'packages_pinned'],
  appliesToManifestOnly: true,
  run(input) {
    const skill = parsedSkill(input);
    if (isSkip(skill)) return skill;
    const packages = probedPackages(input, skill);
    const pinnedPackages = packages.flatMap(pinned);
    return {
      findings: packages.flatMap(packageFindings),
      requirements: {
        packages_exist: packages.every(({ probe }) => EXISTS.includes(probe.outcome)),
        packages_pinned: pinnedPackages.length === packages.length,
      },
      evidence: { pinnedPackages },
      inconclusive: packages.some(({ probe }) => probe.outcome === 'inconclusive'),
    };
  },
};

function packageFindings({ probe, file, line }: ProbedPackage): Finding[] {
  const at = { check: 'C8' as const, file, line };
  const findings: Finding[] = [];
  if (probe.outcome !== 'found') {
    const judged = OUTCOMES[probe.outcome];
    findings.push(newFinding({ ...at, ...judged, message: probe.detail, fixHint: probe.fixHint || judged.fixHint }));
  } else if (probe.integrity === null) {
    findings.push(
      newFinding({
        ...at,
        code: 'no-integrity',
        severity: 'medium',
        message: `The registry gave no integrity digest for ${packageLabel(probe)}, so a certificate cannot pin its bytes.`,
        fixHint: 'Publish the release with a digest (an npm tarball, or a PyPI sdist or wheel).',
      }),
    );
  }
  if (probe.deprecated && EXISTS.includes(probe.outcome)) {
    findings.push(
      newFinding({
        ...at,
        code: 'deprecated',
        severity: 'medium',
        message: `${packageLabel(probe)} is deprecated: ${probe.deprecated}`,
        fixHint: 'Move to a release that is not deprecated, or to its replacement.',
      }),
    );
  }
  return findings;
}

function pinned({ probe }: ProbedPackage): PinnedPackage[] {
  if (probe.outcome !== 'found' || probe.version === null || probe.integrity === null) return [];
  return [{ registry: probe.registry, name: probe.name, version: probe.version, integrity: probe.integrity }];
}
