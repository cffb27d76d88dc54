/** C14: the publisher's own Ed25519 signature over every file, required once the namespace registers a key. */
import { generateKeyPairSync } from 'node:crypto';
import { sha256Hex } from '@skillhub/bundle';
import { keyId, signPublisherFiles, type TrustedKey } from '@skillhub/signing';
import {
  certifyFiles,
  findingsOf,
  kazmaFiles,
  kazmaProbes,
  NAMESPACE,
  NOW,
  placeOf,
  type Files,
} from '../testing/certification-fixtures';

const SIGNATURE = '.skillhub-signature.json';

function publisherKey(): { sign: (files: Files, skill?: string) => Files; trusted: TrustedKey } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const sign = (files: Files, skill = `${NAMESPACE}/weather-report@1.2.0`): Files => {
    const list = Object.entries(files).map(([path, content]) => ({ path, sha256: sha256Hex(content) }));
    return { ...files, [SIGNATURE]: signPublisherFiles(skill, list, privateKey) };
  };
  return { sign, trusted: { keyid: keyId(publicKey), publicKey } };
}

const certify = (files: Files, publisherKeys: TrustedKey[]) =>
  certifyFiles(files, { probes: kazmaProbes(), publisherKeys });

describe('C14 publisher signature', () => {
  const alice = publisherKey();

  it('is optional while the namespace registers no key: skipped with the reason and how to start', () => {
    const report = certify(kazmaFiles(), []);
    expect(report.checks.C14).toBe('skipped');
    expect(findingsOf(report, 'C14.skipped')[0]?.fixHint).toContain('skillhub keys generate');
  });

  it('passes a bundle signed by a registered key, and records the key in the report', () => {
    const report = certify(alice.sign(kazmaFiles()), [alice.trusted]);
    expect(report.checks.C14).toBe('pass');
    expect(findingsOf(report, 'C14.signed')[0]?.message).toContain(alice.trusted.keyid);
    expect(report.files.map((f) => f.path)).toContain(SIGNATURE);
  });

  it('fails an unsigned bundle once the namespace registered a key (a stolen token alone is not enough)', () => {
    const report = certify(kazmaFiles(), [alice.trusted]);
    expect(report.checks.C14).toBe('fail');
    expect(report.status).toBe('failed');
    expect(findingsOf(report, 'C14.unsigned').map(placeOf)).toEqual([
      { rule: 'C14.unsigned', severity: 'high', file: null, line: null },
    ]);
  });

  it('fails a signature by a key the namespace did not register, naming the key to register', () => {
    const mallory = publisherKey();
    for (const keys of [[], [alice.trusted]]) {
      const report = certify(mallory.sign(kazmaFiles()), keys);
      expect(report.checks.C14).toBe('fail');
      const [finding] = findingsOf(report, 'C14.unknown-key');
      expect(finding?.message).toContain(mallory.trusted.keyid);
      expect(finding?.fixHint).toContain('skillhub keys register');
    }
  });

  it('fails a file changed after signing as critical, naming the file', () => {
    const signed = alice.sign(kazmaFiles());
    const report = certify({ ...signed, 'notes.md': 'added later' }, [alice.trusted]);
    expect(findingsOf(report, 'C14.files-differ').map((f) => [f.severity, f.message])).toEqual([
      ['critical', 'The bundle is not what the publisher signed: notes.md was added after signing.'],
    ]);
    expect(report.status).toBe('failed');
  });

  it('fails a signature by a key removed since (the key id is registered, but its window closed)', () => {
    const removed = { ...alice.trusted, notAfter: new Date('2020-01-01T00:00:00.000Z') };
    const report = certify(alice.sign(kazmaFiles()), [removed]);
    expect(findingsOf(report, 'C14.bad-signature')).toHaveLength(1);
  });

  it('fails a genuine signature made for another version as critical (a release re-published under a new number)', () => {
    const report = certify(alice.sign(kazmaFiles(), `${NAMESPACE}/weather-report@0.9.0`), [alice.trusted]);
    expect(findingsOf(report, 'C14.wrong-skill').map((f) => [f.severity, f.message])).toEqual([
      [
        'critical',
        `The publisher signature is for another release: signed for ${NAMESPACE}/weather-report@0.9.0, published as ${NAMESPACE}/weather-report@1.2.0.`,
      ],
    ]);
  });

  it('does not require a signature of a version published before the key was registered (judged again later)', () => {
    const later = { ...alice.trusted, registeredAt: new Date(NOW.getTime() + 60_000) };
    expect(certify(kazmaFiles(), [later]).checks.C14).toBe('skipped');
    const before = { ...alice.trusted, registeredAt: new Date(NOW.getTime() - 60_000) };
    expect(certify(kazmaFiles(), [before]).checks.C14).toBe('fail');
    expect(certify(alice.sign(kazmaFiles()), [later]).checks.C14).toBe('pass');
  });

  it('stops requiring a signature once every key is removed, and still refuses signatures by a removed key', () => {
    const removed = { ...alice.trusted, notAfter: new Date('2020-01-01T00:00:00.000Z') };
    expect(certify(kazmaFiles(), [removed]).checks.C14).toBe('skipped');
    expect(findingsOf(certify(alice.sign(kazmaFiles()), [removed]), 'C14.bad-signature')).toHaveLength(1);
  });

  it('fails an unreadable signature file as high', () => {
    const report = certify({ ...kazmaFiles(), [SIGNATURE]: 'not json' }, [alice.trusted]);
    expect(findingsOf(report, 'C14.malformed').map((f) => f.severity)).toEqual(['high']);
  });
});
