import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { signCertificate, type CertificateStatement } from './certificate-statement';
import { signCheckpoint } from './checkpoint';
import { signEnvelope, type DsseEnvelope, type TrustedKey } from './dsse';
import { keyId } from './hub-key';
import { verifyInstallation, type InstallRefusal, type InstallVerificationInput } from './install-verifier';
import { consistencyProof, inclusionProof, leafHash, merkleRoot } from './merkle';
import { REVOCATIONS_PAYLOAD_TYPE } from './revocation-list';

const hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const ORIGIN = 'hub.test/log';
const NOW = new Date('2026-06-01T12:00:00.000Z');

const newKey = (): { privateKey: KeyObject; trusted: TrustedKey } => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, trusted: { keyid: keyId(publicKey), publicKey } };
};
const hub = newKey();
const stranger = newKey();

const bundle = Buffer.from('the gzipped bundle bytes');
const files = [
  { path: 'skill_manifest.yaml', content: Buffer.from('name: weather\n') },
  { path: 'main.py', content: Buffer.from('print("sunny")\n') },
];
const CERT_INDEX = 2;
const statement: CertificateStatement = {
  skill: 'acme/weather',
  version: '1.0.0',
  bundleSha256: hex(bundle),
  manifestSha256: hex('manifest'),
  entryPointChecksum: hex(files[1].content),
  files: Object.fromEntries(files.map((f) => [f.path, hex(f.content)])),
  capabilities: [],
  permissions: [],
  codeCapabilities: [],
  packages: [],
  tools: {},
  servers: [],
  level: 'basic',
  checkResultsSha256: hex('results'),
  issuedAt: '2026-05-01T00:00:00.000Z',
  expiresAt: '2027-05-01T00:00:00.000Z',
  logIndex: CERT_INDEX,
};
const envelope = signCertificate(statement, hub.privateKey, hub.trusted.keyid);

// The log as the hub would hold it: other entries around the certificate, whose leaf data is
// the envelope as JSON.stringify wrote it at append time.
const leaves = ['{"other":"entry 0"}', '{"other":"entry 1"}', JSON.stringify(envelope), '{"other":"entry 3"}'];
const OLD_SIZE = 3;
const NEW_SIZE = 4;
const hashesUpTo = (size: number) => leaves.slice(0, size).map((leaf) => leafHash(Buffer.from(leaf, 'utf8')));
const rootOf = (size: number) => merkleRoot(hashesUpTo(size)).toString('hex');

function servedCheckpoint(size: number, key = hub.privateKey) {
  const rootHash = merkleRoot(hashesUpTo(size));
  const note = signCheckpoint({ origin: ORIGIN, treeSize: size, rootHash, timestamp: NOW }, key);
  return { origin: ORIGIN, tree_size: size, root_hash: rootHash.toString('hex'), note };
}

function revocationList(
  changes: Partial<{ issuedAt: string; expiresAt: string; revoked: object[] }> = {},
  payloadType = REVOCATIONS_PAYLOAD_TYPE,
): DsseEnvelope {
  const list = {
    issuedAt: '2026-06-01T11:30:00.000Z',
    expiresAt: '2026-06-01T12:30:00.000Z',
    logSize: NEW_SIZE,
    revoked: [
      {
        skill: 'acme/other',
        version: '2.0.0',
        bundleSha256: hex('other bundle'),
        reason: 'leaked a key',
        logIndex: 1,
        revokedAt: '2026-05-20T00:00:00.000Z',
      },
    ],
    ...changes,
  };
  return signEnvelope(payloadType, Buffer.from(canonicalJson(list), 'utf8'), hub.privateKey, hub.trusted.keyid);
}

const revokedEntry = (changes: object) => ({
  skill: 'acme/weather',
  version: '1.0.0',
  bundleSha256: hex(bundle),
  reason: 'ships a\nkey stealer',
  logIndex: 5,
  revokedAt: '2026-05-30T00:00:00.000Z',
  ...changes,
});

/** A first-use installation that verifies; each test changes one thing. */
function input(changes: Partial<InstallVerificationInput> = {}): InstallVerificationInput {
  return {
    skillRef: 'acme/weather',
    version: '1.0.0',
    bundle,
    files,
    certificate: {
      // Served back from JSONB: same envelope, other key order than the logged text.
      envelope: { signatures: envelope.signatures, payloadType: envelope.payloadType, payload: envelope.payload },
      log_index: CERT_INDEX,
      checkpoint: servedCheckpoint(NEW_SIZE),
      inclusion_proof: inclusionProof(CERT_INDEX, hashesUpTo(NEW_SIZE)).map((h) => h.toString('hex')),
    },
    leafData: leaves[CERT_INDEX],
    trustedKeys: [hub.trusted],
    logOrigin: ORIGIN,
    lastCheckpoint: null,
    consistencyProof: null,
    revocations: { envelope: revocationList(), lastSeenIssuedAt: null },
    now: NOW,
    ...changes,
  };
}

const withCertificate = (changes: Partial<InstallVerificationInput['certificate']>) =>
  input({ certificate: { ...input().certificate, ...changes } });

const refusedAs = (reason: InstallRefusal, message: RegExp) => ({
  ok: false,
  reason,
  message: expect.stringMatching(message),
});

describe('verifyInstallation', () => {
  it('accepts a certified, logged, unrevoked bundle on first use and returns what to remember', () => {
    expect(verifyInstallation(input())).toEqual({
      ok: true,
      statement,
      checkpoint: { treeSize: NEW_SIZE, rootHash: rootOf(NEW_SIZE) },
      revocationsIssuedAt: '2026-06-01T11:30:00.000Z',
    });
  });

  it('accepts a log that grew since the checkpoint remembered, with a consistency proof', () => {
    const verdict = verifyInstallation(
      input({
        lastCheckpoint: { treeSize: OLD_SIZE, rootHash: rootOf(OLD_SIZE) },
        consistencyProof: consistencyProof(OLD_SIZE, hashesUpTo(NEW_SIZE)).map((h) => h.toString('hex')),
        revocations: { envelope: revocationList(), lastSeenIssuedAt: '2026-06-01T11:00:00.000Z' },
      }),
    );
    expect(verdict).toMatchObject({ ok: true, checkpoint: { treeSize: NEW_SIZE, rootHash: rootOf(NEW_SIZE) } });
  });

  it('accepts an unchanged log and the same revocation list seen before', () => {
    const verdict = verifyInstallation(
      input({
        lastCheckpoint: { treeSize: NEW_SIZE, rootHash: rootOf(NEW_SIZE) },
        revocations: { envelope: revocationList(), lastSeenIssuedAt: '2026-06-01T11:30:00.000Z' },
      }),
    );
    expect(verdict.ok).toBe(true);
  });

  it('accepts a revocation list signed just before its key was retired, as it was valid when issued', () => {
    const retired = { ...hub.trusted, notAfter: new Date('2026-06-01T11:45:00.000Z') };
    expect(verifyInstallation(input({ trustedKeys: [retired] })).ok).toBe(true);
  });

  it.each([
    [
      'by an untrusted key',
      () => input({ trustedKeys: [stranger.trusted] }),
      /certificate: .*not signed by a trusted key/,
    ],
    [
      'by a key retired before the certificate was issued',
      () => input({ trustedKeys: [{ ...hub.trusted, notAfter: new Date('2026-04-01T00:00:00.000Z') }] }),
      /certificate: Key .* was not valid at 2026-05-01/,
    ],
  ])('refuses a certificate signed %s as unknown-key', (_label, make, message) => {
    expect(verifyInstallation(make())).toEqual(refusedAs('unknown-key', message));
  });

  it.each([
    [
      'an altered statement',
      () => ({
        ...envelope,
        payload: Buffer.from(canonicalJson({ ...statement, level: 'standard' })).toString('base64'),
      }),
      /certificate: The envelope signature does not verify/,
    ],
    ['no envelope at all', () => null, /certificate: .*no payload/],
  ])('refuses %s as unsigned', (_label, make, message) => {
    expect(verifyInstallation(withCertificate({ envelope: make() }))).toEqual(refusedAs('unsigned', message));
  });

  it.each([
    ['another skill', { skillRef: 'acme/forecast' }],
    ['another version', { version: '1.0.1' }],
  ])('refuses a genuine certificate of %s as wrong-skill', (_label, changes) => {
    expect(verifyInstallation(input(changes))).toEqual(
      refusedAs('wrong-skill', /^certificate: issued for acme\/weather@1\.0\.0, not /),
    );
  });

  it.each([
    ['other bundle bytes', { bundle: Buffer.from('other bytes') }, /bundle SHA-256 is/],
    [
      'a changed file',
      { files: [files[0], { path: 'main.py', content: Buffer.from('steal()\n') }] },
      /1 file\(s\) differ .*\(main\.py: digest differs\)/,
    ],
  ])('refuses %s as tampered', (_label, changes, message) => {
    expect(verifyInstallation(input(changes))).toEqual(refusedAs('tampered', message));
  });

  it.each([
    ['a certificate past its expiry', new Date('2027-05-01T00:00:00.000Z'), /expired at 2027-05-01/],
    ['an invalid now, which would pass every expiry check', new Date(Number.NaN), /now is not a valid time/],
  ])('refuses %s as expired', (_label, now, message) => {
    expect(verifyInstallation(input({ now }))).toEqual(refusedAs('expired', message));
  });

  it('refuses a certificate dated in the future beyond the clock-skew allowance as not yet valid', () => {
    expect(verifyInstallation(input({ now: new Date('2026-04-30T23:00:00.000Z') }))).toEqual(
      refusedAs('not-yet-valid', /issued at 2026-05-01T00:00:00\.000Z, more than 5 minutes after .*not valid yet/),
    );
  });

  it.each([
    [
      'a checkpoint signed by an untrusted key',
      () => withCertificate({ checkpoint: servedCheckpoint(NEW_SIZE, stranger.privateKey) }),
      /^log: .*no signature of hub\.test\/log by a trusted key/,
    ],
    [
      'a checkpoint of another origin',
      () => input({ logOrigin: 'elsewhere.test/log' }),
      /^log: .*elsewhere\.test\/log/,
    ],
    [
      'a served size the note does not sign',
      () => withCertificate({ checkpoint: { ...servedCheckpoint(NEW_SIZE), tree_size: OLD_SIZE } }),
      /the signed checkpoint is 4\//,
    ],
    [
      'another served log index',
      () => withCertificate({ log_index: 1 }),
      /served for entry 1, the certificate states 2/,
    ],
    ['a log entry that is not the certificate', () => input({ leafData: leaves[1] }), /entry 2 holds another envelope/],
    ['log data that is not JSON', () => input({ leafData: 'not json' }), /^log: /],
    [
      'a proof that leads elsewhere',
      () => withCertificate({ inclusion_proof: inclusionProof(1, hashesUpTo(NEW_SIZE)).map((h) => h.toString('hex')) }),
      /entry 2 is not in the tree of 4 entries/,
    ],
    [
      'a proof hash that is not hex',
      () => withCertificate({ inclusion_proof: ['zz'] }),
      /an inclusion proof hash is not a hex SHA-256/,
    ],
  ])('refuses %s as not-in-log', (_label, make, message) => {
    expect(verifyInstallation(make())).toEqual(refusedAs('not-in-log', message));
  });

  it.each([
    [
      'a log that shrank',
      { lastCheckpoint: { treeSize: NEW_SIZE + 1, rootHash: rootOf(NEW_SIZE) } },
      /shrank from 5 to 4/,
    ],
    [
      'another root for the same size',
      { lastCheckpoint: { treeSize: NEW_SIZE, rootHash: rootOf(OLD_SIZE) } },
      /two different roots/,
    ],
    [
      'a grown log without a proof',
      { lastCheckpoint: { treeSize: OLD_SIZE, rootHash: rootOf(OLD_SIZE) } },
      /no consistency proof from 3 to 4/,
    ],
    [
      'a rewritten history',
      {
        lastCheckpoint: { treeSize: OLD_SIZE, rootHash: hex('a tree the log no longer has') },
        consistencyProof: consistencyProof(OLD_SIZE, hashesUpTo(NEW_SIZE)).map((h) => h.toString('hex')),
      },
      /does not extend the one of 3 seen before/,
    ],
  ])('refuses %s as log-forked', (_label, changes, message) => {
    expect(verifyInstallation(input(changes))).toEqual(refusedAs('log-forked', message));
  });

  it.each([
    [
      'an expired list',
      { envelope: revocationList({ expiresAt: NOW.toISOString() }), lastSeenIssuedAt: null },
      /expired at 2026-06-01T12:00/,
    ],
    [
      'a list dated in the future beyond the clock-skew allowance',
      { envelope: revocationList({ issuedAt: '2026-06-01T12:10:00.000Z' }), lastSeenIssuedAt: null },
      /issued at 2026-06-01T12:10:00\.000Z, more than 5 minutes after/,
    ],
    [
      'a list older than the one seen before',
      { envelope: revocationList(), lastSeenIssuedAt: '2026-06-01T11:45:00.000Z' },
      /older than the one seen before/,
    ],
    [
      'an unreadable stored time',
      { envelope: revocationList(), lastSeenIssuedAt: 'yesterday' },
      /older than the one seen before \(yesterday\)/,
    ],
    [
      'a certificate passed off as a list',
      { envelope, lastSeenIssuedAt: null },
      /Expected payload type application\/vnd\.skillhub\.revocations\+json/,
    ],
    [
      'an entry it cannot read',
      { envelope: revocationList({ revoked: [{ skill: 'acme/weather' }] }), lastSeenIssuedAt: null },
      /revoked\[0\] lacks one of/,
    ],
  ])('refuses %s as stale-revocations', (_label, revocations, message) => {
    expect(verifyInstallation(input({ revocations }))).toEqual(refusedAs('stale-revocations', message));
  });

  it('refuses a revocation list signed by an untrusted key as unknown-key', () => {
    const forged = { ...revocationList(), signatures: [{ keyid: stranger.trusted.keyid, sig: 'AAAA' }] };
    expect(verifyInstallation(input({ revocations: { envelope: forged, lastSeenIssuedAt: null } }))).toEqual(
      refusedAs('unknown-key', /^revocation list: .*not signed by a trusted key/),
    );
  });

  it.each([
    ['by skill and version', revokedEntry({ bundleSha256: hex('another build') })],
    ['by bundle digest under another name', revokedEntry({ skill: 'acme/renamed' })],
  ])('refuses a version revoked %s, on one line', (_label, entry) => {
    const revocations = { envelope: revocationList({ revoked: [entry] }), lastSeenIssuedAt: null };
    expect(verifyInstallation(input({ revocations }))).toEqual(
      refusedAs(
        'revoked',
        /^revocation list: acme\/\S+@1\.0\.0 was revoked at 2026-05-30T00:00:00\.000Z: ships a key stealer$/,
      ),
    );
  });
});
