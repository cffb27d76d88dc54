/** C9 ownership: each package points back at the skill or its publisher (required for standard only). */
import { isSkip, parsedSkill, type Check } from '../check';
import { newFinding } from '../finding';
import { packageLabel, probedPackages } from './probed-packages';

export const ownershipCheck: Check = {
  id: 'C9',
  decides: ['packages_point_back'],
  appliesToManifestOnly: true,
  run(input) {
    const skill = parsedSkill(input);
    if (isSkip(skill)) return skill;
    const packages = probedPackages(input, skill);
    const skillRef = `${input.namespace.slug}/${skill.name}`;
    // A package that does not exist has no back-reference either; C8 already fails it, so only existing ones are reported here.
    const findings = packages
      .filter(
        ({ probe }) => !probe.ownership.matches && (probe.outcome === 'found' || probe.outcome === 'no_exact_version'),
      )
      .map(({ probe, file, line }) => {
        const claim =
          probe.registry === 'npm'
            ? `"mcpName": "${skillRef}" to its package.json`
            : `a line "mcp-name: ${skillRef}" to its README`;
        const has =
          probe.ownership.backReference === null
            ? 'has no mcpName, mcp-name or repository link'
            : `has a ${probe.ownership.backReference} that names someone else`;
        return newFinding({
          check: 'C9',
          code: 'no-back-reference',
          severity: 'medium',
          file,
          line,
          message: `${packageLabel(probe)} does not point back at ${skillRef} or its publisher: it ${has}.`,
          fixHint: `Add ${claim}, or link the skill's repository from the package.`,
        });
      });
    return {
      findings,
      requirements: { packages_point_back: packages.every(({ probe }) => probe.ownership.matches) },
    };
  },
};
