/**
 * A Kazma signature that verifies locally can still fail on the hub: the hub verifies it with the
 * namespace's registered secret (or its own), and with neither it fails C4.no-secret
 * (docs/security.md). `check-certification` and `publish --dry-run` ask the hub, through whoami,
 * whether it holds one, and say so before the publish does.
 */
import { HubApiError, HubUnreachableError, type HubClient } from '@skillhub/hub-client';
import type { CheckResult } from './local-skill';

export async function hubSignatureWarnings(hub: HubClient, checked: CheckResult): Promise<string[]> {
  const { skill, report } = checked;
  if (!skill || skill.format !== 'kazma' || report.requirementsMet.signature_valid !== true) return [];
  const ns = skill.namespace;
  const fix = `run: skillhub secret set --namespace ${ns} (with the KAZMA_SECRET you signed with)`;
  try {
    const me = await hub.whoami();
    if (me.kind === 'admin') return [];
    const namespace = me.namespaces.find((n) => n.slug === ns);
    if (!namespace) return [`the token in use does not act for namespace ${ns}: the hub will refuse to publish it`];
    if (!namespace.kazma_secret) {
      return [
        `the hub holds no Kazma secret for ${ns}, so it cannot verify the signature checked here ` +
          `(C4.no-secret, unless the hub's own secret signed it); ${fix}`,
      ];
    }
    return [];
  } catch (err) {
    if (err instanceof HubApiError && err.status === 401) {
      return [
        `not logged in: could not ask the hub whether it holds a Kazma secret for ${ns} (without one, C4.no-secret); run: skillhub login`,
      ];
    }
    if (err instanceof HubUnreachableError) {
      return [`the hub did not answer: could not check that it holds a Kazma secret for ${ns}`];
    }
    throw err;
  }
}
