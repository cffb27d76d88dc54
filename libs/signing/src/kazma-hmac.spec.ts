import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { kazmaChecksum, kazmaSignature, verifyKazmaSignature } from './kazma-hmac';

// What `kazma hub sign` computes, in Python's standard library: the hex digest of the raw
// entry-point bytes, then hmac.new(secret.encode(), checksum.encode(), sha256).hexdigest().
// Cases travel as JSON with hex fields, so no locale decodes bytes on the way.
const PYTHON_HUB_SIGN = `
import hashlib, hmac, json, sys
out = []
for case in json.load(sys.stdin):
    raw = bytes.fromhex(case["entry"])
    secret = bytes.fromhex(case["secret"]).decode("utf-8")
    actual_hash = hashlib.sha256(raw).hexdigest()
    sig = hmac.new(secret.encode(), actual_hash.encode(), hashlib.sha256).hexdigest()
    out.append({"checksum": actual_hash, "signature": sig})
print(json.dumps(out))
`;

// Kazma's verify-on-load in the same terms: checksum first, then the HMAC, both with compare_digest.
const PYTHON_VERIFY_ON_LOAD = `
import hashlib, hmac, json, sys
out = []
for case in json.load(sys.stdin):
    raw = bytes.fromhex(case["entry"])
    secret = bytes.fromhex(case["secret"]).decode("utf-8")
    if not hmac.compare_digest(hashlib.sha256(raw).hexdigest(), case["checksum"]):
        out.append("tampered")
    elif not hmac.compare_digest(hmac.new(secret.encode(), case["checksum"].encode(), hashlib.sha256).hexdigest(), case["signature"]):
        out.append("bad-signature")
    else:
        out.append("ok")
print(json.dumps(out))
`;

/** Runs `script` once over all `cases` (one process, not one per case). */
function python<T>(script: string, cases: readonly object[]): T[] {
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(cases), encoding: 'utf8' });
  if (run.error !== undefined || run.status !== 0) {
    throw new Error(`python3 failed (this test needs python3 on PATH): ${run.error?.message ?? run.stderr}`);
  }
  return JSON.parse(run.stdout) as T[];
}

const ENTRY_POINTS: Record<string, Buffer> = {
  'a Python module': Buffer.from('from kazma import Skill\n\nclass Weather(Skill):\n    """Météo — 天気"""\n', 'utf8'),
  'CRLF line endings': Buffer.from('print("hi")\r\nprint("bye")\r\n', 'utf8'),
  'an empty file': Buffer.alloc(0),
  'arbitrary bytes': randomBytes(4096),
};

const SECRETS: Record<string, string> = {
  ASCII: 'kazma-secret',
  // The key is the UTF-8 bytes, not UTF-16 code units.
  'multi-byte UTF-8': 'sécret 🔑 ключ',
  // Longer than a SHA-256 block, so HMAC hashes the key first.
  '200 characters': 'x'.repeat(200),
};

const CASES = Object.entries(ENTRY_POINTS).flatMap(([entryLabel, entry]) =>
  Object.entries(SECRETS).map(([secretLabel, secret]) => ({
    label: `${entryLabel}, ${secretLabel} secret`,
    entry,
    secret,
  })),
);

const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

describe('Kazma v1 signing, against Python doing what `kazma hub sign` does', () => {
  let pythonSigned: Array<{ checksum: string; signature: string }>;

  beforeAll(() => {
    pythonSigned = python(
      PYTHON_HUB_SIGN,
      CASES.map(({ entry, secret }) => ({ entry: entry.toString('hex'), secret: hex(secret) })),
    );
  });

  it.each(CASES.map((c, index) => [c.label, index] as const))('verifies what Python signed: %s', (_label, index) => {
    const { entry, secret } = CASES[index];
    const { checksum, signature } = pythonSigned[index];
    expect(kazmaChecksum(entry)).toBe(checksum);
    expect(kazmaSignature(checksum, secret)).toBe(signature);
    expect(verifyKazmaSignature({ entryPointBytes: entry, checksum, signature, secrets: [secret] })).toEqual({
      status: 'verified',
      secretIndex: 0,
    });
  });

  it('signs what Python verifies, and Python refuses it under another secret', () => {
    const signed = CASES.map(({ entry, secret }) => {
      const checksum = kazmaChecksum(entry);
      return {
        entry: entry.toString('hex'),
        checksum,
        signature: kazmaSignature(checksum, secret),
        secret: hex(secret),
      };
    });
    expect(python<string>(PYTHON_VERIFY_ON_LOAD, signed)).toEqual(signed.map(() => 'ok'));
    const otherSecret = signed.map((c) => ({ ...c, secret: hex('another secret') }));
    expect(python<string>(PYTHON_VERIFY_ON_LOAD, otherSecret)).toEqual(signed.map(() => 'bad-signature'));
  });

  it('writes lowercase hex, 64 characters each', () => {
    const checksum = kazmaChecksum(Buffer.from('x'));
    expect(checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(kazmaSignature(checksum, 'k')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('verifyKazmaSignature', () => {
  const entryPointBytes = Buffer.from('def run():\n    return 42\n', 'utf8');
  const secret = 'namespace-secret';
  const checksum = kazmaChecksum(entryPointBytes);
  const signature = kazmaSignature(checksum, secret);

  it('reports a manifest with neither checksum nor signature as unsigned', () => {
    expect(verifyKazmaSignature({ entryPointBytes, secrets: [secret] })).toEqual({ status: 'unsigned' });
  });

  it('refuses a signature without checksum: present but unverifiable', () => {
    expect(verifyKazmaSignature({ entryPointBytes, signature, secrets: [secret] })).toEqual({
      status: 'bad-signature',
      reason: 'missing-checksum',
    });
  });

  it('reports an altered entry point as tampered', () => {
    const altered = Buffer.from('def run():\n    return 43\n', 'utf8');
    expect(verifyKazmaSignature({ entryPointBytes: altered, checksum, signature, secrets: [secret] })).toEqual({
      status: 'tampered',
      reason: 'checksum-mismatch',
    });
  });

  it.each([
    ['uppercase hex, though it names the right digest', checksum.toUpperCase()],
    ['too short', checksum.slice(0, 63)],
    ['too long', `${checksum}0`],
    ['not hex', `${checksum.slice(0, 63)}g`],
    ['surrounded by spaces', ` ${checksum} `],
    ['empty', ''],
  ])('refuses a checksum that is %s', (_label, badChecksum) => {
    expect(verifyKazmaSignature({ entryPointBytes, checksum: badChecksum, signature, secrets: [secret] })).toEqual({
      status: 'tampered',
      reason: 'malformed-checksum',
    });
  });

  it('refuses a checksum that YAML parsed as something other than a string', () => {
    const notAString = 123 as unknown as string;
    expect(verifyKazmaSignature({ entryPointBytes, checksum: notAString, secrets: [secret] }).status).toBe('tampered');
  });

  it('reports a matching checksum without signature as checksum-only', () => {
    expect(verifyKazmaSignature({ entryPointBytes, checksum, secrets: [secret] })).toEqual({ status: 'checksum-only' });
  });

  it('refuses a signature when no secret is available, empty strings included', () => {
    expect(verifyKazmaSignature({ entryPointBytes, checksum, signature, secrets: [] })).toEqual({
      status: 'no-secret',
    });
    expect(verifyKazmaSignature({ entryPointBytes, checksum, signature, secrets: [''] })).toEqual({
      status: 'no-secret',
    });
  });

  it('refuses a signature made with another secret', () => {
    expect(verifyKazmaSignature({ entryPointBytes, checksum, signature, secrets: ['other', 'hub-secret'] })).toEqual({
      status: 'bad-signature',
      reason: 'no-matching-secret',
    });
  });

  it('refuses a genuine signature moved to a skill with another entry point', () => {
    const other = Buffer.from('print("other skill")\n', 'utf8');
    const otherChecksum = kazmaChecksum(other);
    expect(
      verifyKazmaSignature({ entryPointBytes: other, checksum: otherChecksum, signature, secrets: [secret] }),
    ).toEqual({ status: 'bad-signature', reason: 'no-matching-secret' });
  });

  it.each([
    ['uppercase', signature.toUpperCase()],
    ['truncated', signature.slice(0, 32)],
    ['empty', ''],
  ])('refuses a signature that is %s', (_label, badSignature) => {
    expect(verifyKazmaSignature({ entryPointBytes, checksum, signature: badSignature, secrets: [secret] })).toEqual({
      status: 'bad-signature',
      reason: 'malformed-signature',
    });
  });

  it('says which of several secrets matched', () => {
    expect(verifyKazmaSignature({ entryPointBytes, checksum, signature, secrets: ['hub-secret', '', secret] })).toEqual(
      { status: 'verified', secretIndex: 2 },
    );
  });

  it('turns an internal error into a refusal, never a pass', () => {
    const broken = undefined as unknown as Buffer;
    expect(verifyKazmaSignature({ entryPointBytes: broken, checksum, signature, secrets: [secret] })).toEqual({
      status: 'bad-signature',
      reason: 'error',
    });
  });
});
