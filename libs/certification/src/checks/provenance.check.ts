/**
 * C9 provenance: what the registry says about where each package the skill runs comes from, its
 * source repository and the provenance attestation it lists. Evidence only, never a level: a
 * skill's author cannot change someone else's package.
 */
import { isSkip, parsedSkill, type Check } from '../check';
import type { ProbeResult } from '../certification-input';
import { newFinding } from '../finding';
import type { PackageProvenance } from '../report';
import { packageLabel, probedPackages } from './probed-packages';

/** SLSA's provenance predicates are `https://slsa.dev/provenance/v<n>`. */
const SLSA_PROVENANCE = 'https://slsa.dev/provenance/';

export const provenanceCheck: Check = {
  id: 'C9',
  decides: [],
  appliesToManifestOnly: true,
  run(input) {
    const skill = parsedSkill(input);
    if (isSkip(skill)) return skill;
    // Only a found release has an origin to describe; C8 reports every other outcome.
    const found = probedPackages(input, skill).flatMap(({ probe, file, line }) =>
      probe.outcome === 'found' && probe.version !== null ? [{ probe, version: probe.version, file, line }] : [],
    );
    const provenance = found.map(({ probe, version }): PackageProvenance => ({
      registry: probe.registry,
      name: probe.name,
      version,
      repository: probe.provenance.repository,
      attestation: probe.provenance.attestation,
    }));
    const findings = found.map(({ probe, file, line }) =>
      newFinding({
        check: 'C9',
        code: 'provenance',
        severity: 'info',
        file,
        line,
        message: `${packageLabel(probe)} ${origin(probe)}; the hub records it as evidence and does not rate the package by it.`,
        fixHint: 'Nothing to change: this is what the registry says about a package the skill runs.',
      }),
    );
    return { findings, evidence: { provenance } };
  },
};

function origin(probe: ProbeResult): string {
  const { repository, attestation } = probe.provenance;
  const source = repository === null ? 'names no source repository' : `names its source repository ${repository}`;
  if (probe.registry === 'pypi') return `${source}; its attestations are not read (PyPI's JSON API does not list them)`;
  if (attestation === null) return `${source}, and has no provenance attestation`;
  const kind = attestation.startsWith(SLSA_PROVENANCE)
    ? 'a SLSA provenance attestation'
    : `an attestation of type ${attestation}`;
  return `${source}, and npm lists ${kind} for this release`;
}
