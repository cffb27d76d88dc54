/**
 * C14 publisher signature: `.skillhub-signature.json`, written by `skillhub sign --key`, signs the
 * SHA-256 of every other file with the publisher's own Ed25519 key. Once a namespace registers a
 * key, every version published there must carry a signature by one of its keys, so a bundle
 * uploaded with a stolen token alone is not certified. Without registered keys it is optional,
 * but a signature that is present must verify (fail closed, as C4 does for Kazma's HMAC).
 */
import { PUBLISHER_SIGNATURE_FILE, verifyPublisherSignature } from '@skillhub/signing';
import { isSkip, parsedSkill, skip, type Check } from '../check';
import { newFinding, type Finding } from '../finding';
import { findFile } from '../scanned-text';

const SIGN_HINT = 'Sign the folder with `skillhub sign --key <your key>` after the last change, and publish again.';

export const publisherSignatureCheck: Check = {
  id: 'C14',
  decides: [],
  appliesToManifestOnly: false,
  run(input) {
    const { bundle, publisherKeys, namespace, now, publishedAt } = input;
    const file = findFile(bundle, PUBLISHER_SIGNATURE_FILE);
    const one = (finding: Omit<Parameters<typeof newFinding>[0], 'check'>): { findings: Finding[] } => ({
      findings: [newFinding({ check: 'C14', file: PUBLISHER_SIGNATURE_FILE, ...finding })],
    });
    // Required when the namespace has a key that is active now and was registered by the time the
    // version was published; removed keys stay only to refuse their signatures.
    const required = publisherKeys.some(
      (key) =>
        (key.notAfter === undefined || key.notAfter.getTime() > now.getTime()) &&
        (key.registeredAt === undefined || key.registeredAt.getTime() <= publishedAt.getTime()),
    );
    if (!file) {
      if (!required) {
        return skip(
          `the skill carries no ${PUBLISHER_SIGNATURE_FILE} and namespace ${namespace.slug} registered no publisher key, so a publisher signature is optional`,
          'Generate a key (`skillhub keys generate`), register it (`skillhub keys register`) and sign with `skillhub sign --key`.',
        );
      }
      return one({
        code: 'unsigned',
        severity: 'high',
        file: null,
        message: `Namespace ${namespace.slug} registered publisher keys, but this bundle carries no ${PUBLISHER_SIGNATURE_FILE}: it may not come from the publisher.`,
        fixHint: SIGN_HINT,
      });
    }
    const skill = parsedSkill(input);
    if (isSkip(skill)) return skill;
    const published = `${namespace.slug}/${skill.name}@${skill.version}`;
    const verdict = verifyPublisherSignature(published, file.content, bundle.files, publisherKeys, now);
    if (verdict.ok) {
      return one({
        code: 'signed',
        severity: 'info',
        message: `Signed by publisher key ${verdict.keyId} at ${verdict.statement.signedAt}; every file matches.`,
        fixHint: 'Nothing to do.',
      });
    }
    switch (verdict.reason) {
      case 'unknown-key':
        return one({
          code: 'unknown-key',
          severity: 'high',
          message: `The publisher signature is ${verdict.message} ${namespace.slug}, so it cannot be verified.`,
          fixHint: `Register the public key with \`skillhub keys register --namespace ${namespace.slug} <key>.pub\`, or sign with a registered key.`,
        });
      case 'wrong-skill':
        return one({
          code: 'wrong-skill',
          severity: 'critical',
          message: `The publisher signature is for another release: ${verdict.message}.`,
          fixHint: `Sign this release (\`skillhub sign --key\` signs the namespace, name and version it will be published as) and publish again.`,
        });
      case 'files-differ':
        return one({
          code: 'files-differ',
          severity: 'critical',
          message: `The bundle is not what the publisher signed: ${verdict.message}.`,
          fixHint: `If you changed it on purpose, sign again: ${SIGN_HINT}`,
        });
      case 'bad-signature':
        return one({
          code: 'bad-signature',
          severity: 'critical',
          message: `The publisher signature does not verify (${verdict.message}): the signed statement was altered or forged.`,
          fixHint: SIGN_HINT,
        });
      case 'malformed':
        return one({
          code: 'malformed',
          severity: 'high',
          message: `${PUBLISHER_SIGNATURE_FILE} is unreadable: ${verdict.message}.`,
          fixHint: SIGN_HINT,
        });
    }
  },
};
