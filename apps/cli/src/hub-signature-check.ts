/**
 * What the hub will decide of a skill's signatures that a local check cannot see, said before the
 * publish does (`check-certification`, `publish --dry-run`):
 *   - a Kazma signature that verifies locally can still fail: the hub verifies it with the
 *     namespace's registered secret (or its own), and with neither it fails C4.no-secret
 *     (docs/security.md); whoami says whether the hub holds one;
 *   - a namespace that registered publisher keys fails every version without a publisher
 *     signature (C14.unsigned); its key list says whether it has one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HubApiError, HubUnreachableError, type HubClient } from '@skillhub/hub-client';
import { PUBLISHER_SIGNATURE_FILE } from '@skillhub/signing';
import type { CheckResult } from './local-skill';

export async function hubSignatureWarnings(hub: HubClient, checked: CheckResult, dir: string): Promise<string[]> {
  return [...(await kazmaSecretWarnings(hub, checked)), ...(await publisherKeyWarnings(hub, checked, dir))];
}

async function publisherKeyWarnings(hub: HubClient, checked: CheckResult, dir: string): Promise<string[]> {
  const { skill } = checked;
  if (!skill || existsSync(join(dir, PUBLISHER_SIGNATURE_FILE))) return [];
  const ns = skill.namespace;
  try {
    if (!(await hub.publisherKeys(ns)).signatures_required) return [];
    return [
      `namespace ${ns} registered publisher keys, so the hub fails a version without a publisher signature ` +
        `(C14.unsigned); run: skillhub sign ${dir} --key <your private key file>`,
    ];
  } catch (err) {
    // A namespace not created yet has no keys; a hub that does not answer is said by the check above.
    if (err instanceof HubApiError || err instanceof HubUnreachableError) return [];
    throw err;
  }
}

async function kazmaSecretWarnings(hub: HubClient, checked: CheckResult): Promise<string[]> {
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
