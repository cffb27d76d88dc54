/** C7 namespace: the publisher owns the namespace, and the manifest's author is that namespace. */
import type { Check } from '../check';
import { newFinding, type Finding } from '../finding';
import { lineOfFirstMatch } from '../scanned-text';

export const namespaceCheck: Check = {
  id: 'C7',
  decides: ['namespace_owned'],
  appliesToManifestOnly: true,
  run({ bundle, namespace, skill }) {
    const findings: Finding[] = [];
    if (!namespace.ownerMatches) {
      findings.push(
        newFinding({
          check: 'C7',
          code: 'not-namespace-owner',
          severity: 'high',
          message: `The publisher does not own the namespace '${namespace.slug}'.`,
          fixHint: "Publish with a token of the namespace's owner, or under a namespace you own.",
        }),
      );
    }
    if (skill && skill.namespace !== namespace.slug) {
      findings.push(
        newFinding({
          check: 'C7',
          code: 'author-mismatch',
          severity: 'high',
          file: skill.manifestPath,
          line: lineOfFirstMatch(bundle, skill.manifestPath, /^author\s*:/m),
          message: `The manifest's author '${skill.author}' makes the namespace '${skill.namespace}', not '${namespace.slug}' where it is published.`,
          fixHint: `Set author to your namespace ('${namespace.slug}'), or publish under the namespace the author names if you own it.`,
        }),
      );
    }
    // Without a parsed manifest the author is unknown, so ownership of the skill is not shown.
    return { findings, requirements: { namespace_owned: skill !== null && findings.length === 0 } };
  },
};
