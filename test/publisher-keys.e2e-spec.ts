/**
 * Publisher keys (C14) over HTTP with a real certifier: a namespace registers an Ed25519 key, and
 * from then on only versions signed by an active key of it are certified.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { keyId } from '@skillhub/signing';
import { kazmaBundle, uniqueName } from '@skillhub/testing';
import { startTestHub, type TestHub } from './support/test-hub';

const KAZMA_SECRET = 'publisher-keys-e2e-kazma-secret';

const newKey = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), id: keyId(publicKey) };
};

describe('publisher keys', () => {
  let hub: TestHub;
  let token: string;
  const ns = uniqueName('pubkeys');
  const alice = newKey();

  beforeAll(async () => {
    hub = await startTestHub({ worker: true, env: { KAZMA_SECRET, PUBLISH_RATE_LIMIT_PER_MINUTE: '1000' } });
    token = await hub.token(ns, ['publish', 'manage']);
  });
  afterAll(() => hub.close());

  const auth = (t = token) => ({ authorization: `Bearer ${t}` });
  const bundle = (name: string, key?: KeyObject) =>
    kazmaBundle({ author: ns, name, manifest: { permissions: [] }, sign: { secret: KAZMA_SECRET }, publisherKey: key });
  const certify = async (bytes: Buffer, name: string) => {
    await hub.http.post('/api/v1/skills').set(auth()).set('content-type', 'application/gzip').send(bytes).expect(201);
    for (let i = 0; i < 300; i++) {
      const res = await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/1.0.0/certification`).expect(200);
      if (res.body.status !== 'pending') return res.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${name} stayed pending`);
  };
  const c14 = (report: { report: { findings: Array<{ check: string; rule: string }> } }) =>
    report.report.findings.filter((f) => f.check === 'C14').map((f) => f.rule);

  it('refuses what is not an Ed25519 public key with a problem naming the field, and writes nothing', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' });
    for (const public_key of ['not a key', rsa.toString(), alice.privateKey.export({ type: 'pkcs8', format: 'pem' })]) {
      const res = await hub.http.post(`/api/v1/namespaces/${ns}/publisher-keys`).set(auth()).send({ public_key });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain('public_key');
      expect(JSON.stringify(res.body)).not.toContain('PRIVATE KEY');
    }
    const listed = await hub.http.get(`/api/v1/namespaces/${ns}/publisher-keys`).expect(200);
    expect(listed.body).toEqual({ namespace: ns, signatures_required: false, keys: [] });
  });

  it("certifies unsigned versions until a key is registered, and refuses others' namespaces", async () => {
    const before = uniqueName('before');
    const verdict = await certify(bundle(before), before);
    expect(verdict.status).toBe('certified');
    expect(c14(verdict)).toEqual(['C14.skipped']);

    const other = await hub.token(uniqueName('other'), ['manage']);
    await hub.http
      .post(`/api/v1/namespaces/${ns}/publisher-keys`)
      .set(auth(other))
      .send({ public_key: alice.pem })
      .expect(403);
    await hub.http.post(`/api/v1/namespaces/${ns}/publisher-keys`).send({ public_key: alice.pem }).expect(401);
  });

  it('once a key is registered, certifies only versions it signed', async () => {
    const registered = await hub.http
      .post(`/api/v1/namespaces/${ns}/publisher-keys`)
      .set(auth())
      .send({ public_key: alice.pem, name: 'alice laptop' })
      .expect(201);
    expect(registered.body).toMatchObject({ key_id: alice.id, name: 'alice laptop', removed_at: null });
    await hub.http
      .post(`/api/v1/namespaces/${ns}/publisher-keys`)
      .set(auth())
      .send({ public_key: alice.pem })
      .expect(409);
    const listed = await hub.http.get(`/api/v1/namespaces/${ns}/publisher-keys`).expect(200);
    expect(listed.body.signatures_required).toBe(true);

    const signed = uniqueName('signed');
    const ok = await certify(bundle(signed, alice.privateKey), signed);
    expect(ok.status).toBe('certified');
    expect(c14(ok)).toEqual(['C14.signed']);

    const unsigned = uniqueName('unsigned');
    const refused = await certify(bundle(unsigned), unsigned);
    expect(refused.status).toBe('failed');
    expect(c14(refused)).toEqual(['C14.unsigned']);

    const mallory = newKey();
    const forged = uniqueName('forged');
    expect(c14(await certify(bundle(forged, mallory.privateKey), forged))).toEqual(['C14.unknown-key']);
  });

  it('a removed key signs nothing from then on; the record stays listed', async () => {
    const removed = await hub.http
      .delete(`/api/v1/namespaces/${ns}/publisher-keys/${alice.id}`)
      .set(auth())
      .expect(200);
    expect(removed.body.removed_at).not.toBeNull();
    const late = uniqueName('late');
    const verdict = await certify(bundle(late, alice.privateKey), late);
    expect(verdict.status).toBe('failed');
    expect(c14(verdict)).toEqual(['C14.bad-signature']);
    const listed = await hub.http.get(`/api/v1/namespaces/${ns}/publisher-keys`).expect(200);
    expect(listed.body).toMatchObject({ signatures_required: false, keys: [{ key_id: alice.id }] });
    // As the API says: with no active key, signatures are optional again.
    const unsigned = uniqueName('unsignedagain');
    const again = await certify(bundle(unsigned), unsigned);
    expect([again.status, c14(again)]).toEqual(['certified', ['C14.skipped']]);
    await hub.http
      .delete(`/api/v1/namespaces/${ns}/publisher-keys/${'0'.repeat(64)}`)
      .set(auth())
      .expect(404);
  });
});
