/**
 * Publish → certifier-worker → verdict, over HTTP with real PostgreSQL, Redis and a
 * local fake npm/PyPI: certificates verify offline against the bundle, the log proves
 * inclusion and consistency, revocation changes everything at once.
 */
import { createHash } from 'node:crypto';
import { Queue } from 'bullmq';
import { stringify } from 'yaml';
import { CERTIFICATION_POLICY_VERSION } from '@skillhub/certification';
import { writeBundle } from '@skillhub/bundle';
import { FakeRegistries } from '@skillhub/package-probe/testing';
import { PolicyUpgrade, Reprober } from '@skillhub/certifier';
import { CERTIFICATION_QUEUE, CERTIFY_JOB } from '@skillhub/queue';
import {
  kazmaChecksum,
  publicKeyFromPem,
  verifyCertificate,
  verifyCheckpoint,
  verifyConsistency,
  verifyEnvelope,
  verifyInclusion,
  leafHash,
  verifyBundleCertificate,
} from '@skillhub/signing';
import { agentSkillBundle, kazmaBundle, swarmkitSkill, testRedisUrl, uniqueName } from '@skillhub/testing';
import { startTestHub, type TestHub } from './support/test-hub';

const KAZMA_SECRET = 'hub-wide-kazma-secret-for-tests';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const CODE = 'class WeatherSkill:\n    def get_weather(self, city):\n        return {"city": city}\n';

/** A signed Kazma skill (hub-wide secret by default); `signWith` signs other bytes than the code shipped. */
const kazma = (
  author: string,
  name: string,
  o: { code?: string; signWith?: Buffer; secret?: string; extra?: Record<string, unknown> } = {},
) =>
  kazmaBundle({
    author,
    name,
    code: o.code ?? CODE,
    manifest: { permissions: [], ...o.extra },
    sign: { secret: o.secret ?? KAZMA_SECRET, checksumOf: o.signWith },
  });

describe('certification', () => {
  let hub: TestHub;
  let registries: FakeRegistries;
  let token: string;
  const ns = uniqueName('cert');

  beforeAll(async () => {
    registries = await FakeRegistries.start();
    hub = await startTestHub({
      worker: true,
      env: {
        KAZMA_SECRET,
        NPM_REGISTRY_URL: registries.baseUrls.npmBaseUrl,
        PYPI_REGISTRY_URL: registries.baseUrls.pypiBaseUrl,
        PROBE_MAX_ATTEMPTS: '2',
        INCONCLUSIVE_RETRY_MS: '1500',
        PUBLISH_RATE_LIMIT_PER_MINUTE: '1000',
      },
    });
    token = await hub.token(ns, ['publish', 'manage']);
  });
  afterAll(async () => {
    await hub.close();
    await registries.close();
  });

  const publish = async (bytes: Buffer, query = '') => {
    const res = await hub.http
      .post(`/api/v1/skills${query}`)
      .set('authorization', `Bearer ${token}`)
      .set('content-type', 'application/gzip')
      .send(bytes);
    expect(res.status).toBe(201);
    return res.body as { name: string; version: string };
  };

  const verdict = async (name: string, version = '1.0.0') => {
    for (let i = 0; i < 300; i++) {
      const res = await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/${version}/certification`).expect(200);
      if (res.body.status !== 'pending') return res.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${name} stayed pending`);
  };

  const trustedKeys = async () => {
    const { body } = await hub.http.get('/.well-known/skillhub/keys.json').expect(200);
    return (
      body.keys as Array<{ keyid: string; public_key_pem: string; not_before: string; not_after: string | null }>
    ).map((k) => ({
      keyid: k.keyid,
      publicKey: publicKeyFromPem(k.public_key_pem),
      notBefore: new Date(k.not_before),
      notAfter: k.not_after ? new Date(k.not_after) : undefined,
    }));
  };

  it('certifies a signed Kazma skill; its certificate verifies offline against the bundle and the log', async () => {
    const name = uniqueName('weather');
    const bytes = kazma(ns, name);
    await publish(bytes);
    const report = await verdict(name);
    expect(report.status).toBe('certified');
    expect(['basic', 'standard']).toContain(report.level);
    expect(report.requirements_met).toMatchObject({
      manifest_valid: true,
      entry_point_exists: true,
      license_present: true,
      description_complete: true,
      checksum_valid: true,
      signature_valid: true,
    });
    expect(report.issued_at).toEqual(expect.any(String));

    const cert = await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/1.0.0/certificate`).expect(200);
    const keys = await trustedKeys();
    const statement = verifyCertificate(cert.body.envelope, keys);
    expect(statement).toMatchObject({
      skill: `${ns}/${name}`,
      version: '1.0.0',
      bundleSha256: sha256(bytes),
      level: report.level,
    });
    expect(statement.entryPointChecksum).toBe(kazmaChecksum(Buffer.from(CODE)));
    expect(statement.logIndex).toBe(cert.body.log_index);

    // The leaf is the envelope as logged; the inclusion proof leads to the signed checkpoint's root.
    const entry = await hub.http.get(`/api/v1/log/entries/${cert.body.log_index}`).expect(200);
    expect(JSON.parse(entry.body.leaf_data)).toEqual(cert.body.envelope);
    const checkpoint = verifyCheckpoint(
      cert.body.checkpoint.note,
      cert.body.checkpoint.origin,
      keys.map((k) => k.publicKey),
    );
    expect(checkpoint.rootHash.toString('hex')).toBe(cert.body.checkpoint.root_hash);
    const included = verifyInclusion(
      leafHash(Buffer.from(entry.body.leaf_data, 'utf8')),
      cert.body.log_index,
      cert.body.checkpoint.tree_size,
      cert.body.inclusion_proof.map((h: string) => Buffer.from(h, 'hex')),
      checkpoint.rootHash,
    );
    expect(included).toBe(true);

    const badge = await hub.http.get(`/api/v1/skills/${ns}/${name}/badge.json`).expect(200);
    expect(badge.body.message).toMatch(/^certified/);
    const certified = await hub.http.get(`/api/v1/skills?certified=true&author=${ns}`).expect(200);
    expect(certified.body.items.map((i: { name: string }) => i.name)).toContain(name);
  });

  it('fails a tampered entry point with the checksum finding, and the badge follows', async () => {
    const name = uniqueName('tampered');
    await publish(kazma(ns, name, { signWith: Buffer.from('the code that was signed\n') }));
    const report = await verdict(name);
    expect(report.status).toBe('failed');
    expect(report.level).toBe('none');
    const findings = report.report.findings as Array<{
      rule: string;
      check: string;
      file: string | null;
      fixHint: string;
    }>;
    const checksum = findings.find((f) => f.check === 'C3');
    expect(checksum).toBeDefined();
    expect(checksum!.fixHint).toEqual(expect.any(String));
    expect(report.requirements_met.checksum_valid).toBe(false);
    await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/1.0.0/certificate`).expect(404);
    const badge = await hub.http.get(`/api/v1/skills/${ns}/${name}/badge.json`).expect(200);
    expect(badge.body).toMatchObject({ message: 'failed', color: 'red' });
  });

  it("catches SwarmKit's documented package mistakes with clear findings", async () => {
    const skill = swarmkitSkill({ id: uniqueName('brave') });
    const name = (skill.metadata as { id: string }).id;
    const bytes = writeBundle(
      [
        {
          path: 'skill.yaml',
          content: stringify({ ...skill, implementation: { type: 'mcp_tool', server: 'brave', tool: 'search' } }),
        },
        {
          path: 'workspace.yaml',
          content: stringify({
            mcp_servers: [
              { id: 'brave', transport: 'stdio', command: ['npx', '-y', '@anthropic/brave-search-mcp@1.0.0'] },
              { id: 'qdrant', transport: 'stdio', command: ['npx', '-y', 'mcp-server-qdrant@0.8.0'] },
            ],
          }),
        },
      ],
      { rootFolder: name },
    );
    await publish(bytes);
    const report = await verdict(name);
    expect(report.status).toBe('failed');
    const messages = (report.report.findings as Array<{ check: string; message: string }>)
      .filter((f) => f.check === 'C8')
      .map((f) => f.message)
      .join('\n');
    expect(messages).toContain('@anthropic/brave-search-mcp');
  });

  it('certifies an Agent Skill', async () => {
    const name = uniqueName('pdf');
    await publish(agentSkillBundle({ name }), '?version=1.0.0');
    const report = await verdict(name);
    expect(report.status).toBe('certified');
  });

  it('a job delivered twice records one result and one log entry', async () => {
    const name = uniqueName('twice');
    await publish(kazma(ns, name));
    await verdict(name);
    const [row] = await hub.dataSource.query(
      `SELECT v.id FROM skill_versions v JOIN skills s ON s.id = v.skill_id WHERE s.name = $1`,
      [name],
    );
    const before = await hub.dataSource.query(`SELECT count(*)::int AS n FROM log_entries`);
    const queue = new Queue(CERTIFICATION_QUEUE, {
      connection: { url: testRedisUrl() },
      prefix: hub.config.REDIS_PREFIX,
    });
    await queue.add(
      CERTIFY_JOB,
      { skillVersionId: row.id, policyVersion: CERTIFICATION_POLICY_VERSION },
      { jobId: `duplicate-${row.id}` },
    );
    for (let i = 0; i < 100 && !(await queue.getJob(`duplicate-${row.id}`))?.finishedOn; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await queue.getJob(`duplicate-${row.id}`))?.returnvalue).toBe('already-judged');
    await queue.close();
    const after = await hub.dataSource.query(`SELECT count(*)::int AS n FROM log_entries`);
    expect(after[0].n).toBe(before[0].n);
    const certificates = await hub.dataSource.query(
      `SELECT count(*)::int AS n FROM certificates c JOIN certifications x ON x.id = c.certification_id WHERE x.skill_version_id = $1`,
      [row.id],
    );
    expect(certificates[0].n).toBe(1);
  });

  it('revocation: logged, signed in the revocation list, and the badge and certified list change at once', async () => {
    const name = uniqueName('revoked');
    await publish(kazma(ns, name));
    expect((await verdict(name)).status).toBe('certified');
    const old = await hub.http.get('/api/v1/log/checkpoint').expect(200);

    const res = await hub.http
      .post(`/api/v1/skills/${ns}/${name}/versions/1.0.0/revoke`)
      .set('authorization', `Bearer ${token}`)
      .send({ reason: 'the API key it ships was leaked' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'revocation', summary: { reason: 'the API key it ships was leaked' } });

    expect((await verdict(name)).status).toBe('revoked');
    const badge = await hub.http.get(`/api/v1/skills/${ns}/${name}/badge.json`).expect(200);
    expect(badge.body.message).toBe('revoked');
    const certified = await hub.http.get(`/api/v1/skills?certified=true&author=${ns}`).expect(200);
    expect(certified.body.items.map((i: { name: string }) => i.name)).not.toContain(name);

    const keys = await trustedKeys();
    const list = await hub.http.get('/.well-known/skillhub/revocations.json').expect(200);
    const payload = JSON.parse(verifyEnvelope(list.body, keys).toString('utf8'));
    expect(payload.revoked.map((r: { skill: string }) => r.skill)).toContain(`${ns}/${name}`);
    expect(Date.parse(payload.expiresAt)).toBeGreaterThan(Date.now());

    // A client holding the old checkpoint checks that the new log extends it.
    const now = await hub.http.get('/api/v1/log/checkpoint').expect(200);
    const proof = await hub.http
      .get(`/api/v1/log/proof/consistency?first=${old.body.tree_size}&second=${now.body.tree_size}`)
      .expect(200);
    const consistent = verifyConsistency(
      old.body.tree_size,
      now.body.tree_size,
      Buffer.from(old.body.root_hash, 'hex'),
      Buffer.from(now.body.root_hash, 'hex'),
      proof.body.hashes.map((h: string) => Buffer.from(h, 'hex')),
    );
    expect(consistent).toBe(true);

    await hub.http
      .post(`/api/v1/skills/${ns}/${name}/versions/1.0.0/revoke`)
      .set('authorization', `Bearer ${token}`)
      .send({ reason: 'again' })
      .expect(409);
    const stranger = await hub.token(uniqueName('stranger'), ['manage']);
    await hub.http
      .post(`/api/v1/skills/${ns}/${name}/versions/1.0.0/revoke`)
      .set('authorization', `Bearer ${stranger}`)
      .send({ reason: 'not mine' })
      .expect(403);
  });

  it('judges a quarantined Kazma submission with the checks that apply to a manifest alone', async () => {
    const manifest = {
      name: uniqueName('submitted'),
      version: '1.0.0',
      description: 'A submitted manifest with no code at all.',
      author: uniqueName('anon'),
      license: 'MIT',
    };
    const submitted = await hub.http.post('/api/v1/skills/submit').send({ manifest }).expect(201);
    let status: { status: string; level: string; requirements_met: Record<string, boolean>; report: unknown } | null =
      null;
    for (let i = 0; i < 200 && !status?.report; i++) {
      status = (await hub.http.get(`/api/v1/skills/${submitted.body.submission_id}/certification`).expect(200)).body;
      if (!status?.report) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toMatchObject({ status: 'quarantined', level: 'none' });
    expect(status!.requirements_met).toMatchObject({
      manifest_valid: true,
      license_present: true,
      namespace_owned: false,
    });
  });

  it('the daily re-probe revokes a certified version whose package disappeared', async () => {
    const name = uniqueName('probed');
    await publish(
      kazma(ns, name, {
        extra: {
          mcp_servers: [{ name: 'weather', type: 'stdio', command: 'npx', args: ['-y', '@acme/weather-mcp@1.2.3'] }],
        },
      }),
    );
    const report = await verdict(name);
    expect(report.status).toBe('certified');
    expect(report.report.pinnedPackages).toEqual([
      expect.objectContaining({
        registry: 'npm',
        name: '@acme/weather-mcp',
        version: '1.2.3',
        integrity: expect.any(String),
      }),
    ]);

    registries.npm.script('/@acme%2fweather-mcp/1.2.3', [{ status: 404, json: { error: 'Not found' } }]);
    registries.npm.script('/@acme%2fweather-mcp', [{ status: 404, json: { error: 'Not found' } }]);
    const certifier = hub.app.get(Reprober);
    const result = await certifier.reprobe();
    expect(result.revoked).toBeGreaterThanOrEqual(1);
    expect((await verdict(name)).status).toBe('revoked');
    const list = await hub.http.get('/.well-known/skillhub/revocations.json').expect(200);
    const payload = JSON.parse(verifyEnvelope(list.body, await trustedKeys()).toString('utf8'));
    const entry = payload.revoked.find((r: { skill: string }) => r.skill === `${ns}/${name}`);
    expect(entry.reason).toContain('@acme/weather-mcp@1.2.3');
    registries.reset();
  });

  it("verifies signatures made with the namespace's registered Kazma secret, and refuses a wrong one", async () => {
    const secret = 'the-namespace-own-kazma-secret';
    await hub.http
      .put(`/api/v1/namespaces/${ns}/kazma-secret`)
      .set('authorization', `Bearer ${token}`)
      .send({ secret })
      .expect(204);
    const sealed = await hub.dataSource.query(`SELECT kazma_secret_sealed FROM namespaces WHERE slug = $1`, [ns]);
    expect(sealed[0].kazma_secret_sealed).toMatch(/^v1\./);
    expect(sealed[0].kazma_secret_sealed).not.toContain(secret);

    const good = uniqueName('ownsecret');
    await publish(kazma(ns, good, { secret }));
    const ok = await verdict(good);
    expect(ok.status).toBe('certified');
    expect(ok.requirements_met.signature_valid).toBe(true);

    const bad = uniqueName('wrongsecret');
    await publish(kazma(ns, bad, { secret: 'a-secret-nobody-registered' }));
    const refused = await verdict(bad);
    expect(refused.status).toBe('failed');
    expect(refused.requirements_met.signature_valid).toBe(false);
    expect(refused.report.findings.some((f: { check: string }) => f.check === 'C4')).toBe(true);
  });

  it('a judgment queued before a revocation never certifies the revoked version', async () => {
    const name = uniqueName('revokedwhilequeued');
    await publish(kazma(ns, name));
    expect((await verdict(name)).status).toBe('certified');
    await hub.http
      .post(`/api/v1/skills/${ns}/${name}/versions/1.0.0/revoke`)
      .set('authorization', `Bearer ${token}`)
      .send({ reason: 'revoked while a judgment was queued' })
      .expect(200);
    // The race: a pending row the revocation did not see (inserted concurrently), and its job.
    const [row] = await hub.dataSource.query(
      `UPDATE certifications SET status = 'pending', level = 'none' WHERE skill_version_id =
         (SELECT v.id FROM skill_versions v JOIN skills s ON s.id = v.skill_id WHERE s.name = $1) RETURNING skill_version_id`,
      [name],
    );
    const versionId = (row as Array<{ skill_version_id: string }>)[0]!.skill_version_id;
    const queue = new Queue(CERTIFICATION_QUEUE, {
      connection: { url: testRedisUrl() },
      prefix: hub.config.REDIS_PREFIX,
    });
    const jobId = `after-revocation-${versionId}`;
    await queue.add(CERTIFY_JOB, { skillVersionId: versionId, policyVersion: CERTIFICATION_POLICY_VERSION }, { jobId });
    for (let i = 0; i < 100 && !(await queue.getJob(jobId))?.finishedOn; i++)
      await new Promise((r) => setTimeout(r, 50));
    await queue.close();
    expect(await verdict(name)).toMatchObject({ status: 'revoked', level: 'none' });
  });

  it('a raised policy version re-judges every version judged under an older one; a revoked one stays revoked', async () => {
    const [kept, yanked, revoked] = [uniqueName('rejudged'), uniqueName('yankedold'), uniqueName('revokedold')];
    for (const name of [kept, yanked, revoked]) {
      await publish(kazma(ns, name));
      expect((await verdict(name)).status).toBe('certified');
    }
    const auth = { authorization: `Bearer ${token}` };
    await hub.http
      .patch(`/api/v1/skills/${ns}/${yanked}/versions/1.0.0`)
      .set(auth)
      .send({ status: 'yanked' })
      .expect(200);
    await hub.http
      .post(`/api/v1/skills/${ns}/${revoked}/versions/1.0.0/revoke`)
      .set(auth)
      .send({ reason: 'bad release' })
      .expect(200);
    // As if these were judged under policy 0 and the hub now runs a newer policy.
    const versions = `SELECT v.id FROM skill_versions v JOIN skills s ON s.id = v.skill_id WHERE s.name = ANY($1)`;
    await hub.dataSource.query(`UPDATE certifications SET policy_version = 0 WHERE skill_version_id IN (${versions})`, [
      [kept, yanked, revoked],
    ]);
    const logBefore = Number((await hub.dataSource.query(`SELECT count(*) AS n FROM log_entries`))[0].n);

    const upgrade = hub.app.get(PolicyUpgrade);
    expect(await upgrade.run()).toBe(2); // kept and yanked; the revoked one is not judged again
    expect(await upgrade.run()).toBe(0);
    const again = await verdict(kept);
    expect(again).toMatchObject({ status: 'certified', policy_version: CERTIFICATION_POLICY_VERSION });
    expect((await verdict(yanked)).policy_version).toBe(CERTIFICATION_POLICY_VERSION);
    expect(await verdict(revoked)).toMatchObject({ status: 'revoked', policy_version: CERTIFICATION_POLICY_VERSION });
    const rows = await hub.dataSource.query(
      `SELECT c.policy_version, c.status FROM certifications c WHERE c.skill_version_id IN (${versions}) ORDER BY 1, 2`,
      [[kept]],
    );
    expect(rows).toEqual([
      { policy_version: 0, status: 'certified' },
      { policy_version: CERTIFICATION_POLICY_VERSION, status: 'certified' },
    ]);
    expect(Number((await hub.dataSource.query(`SELECT count(*) AS n FROM log_entries`))[0].n)).toBe(logBefore + 2);
  });

  it('rotating the signing key keeps earlier certificates verifiable offline against their bundles', async () => {
    const before = uniqueName('beforerotation');
    const bytes = kazma(ns, before);
    await publish(bytes);
    expect((await verdict(before)).status).toBe('certified');
    const oldCert = (await hub.http.get(`/api/v1/skills/${ns}/${before}/versions/1.0.0/certificate`).expect(200)).body;

    const rotated = await hub.http
      .post('/api/v1/admin/signing-keys/rotate')
      .set('authorization', `Bearer ${hub.adminToken}`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.keys.filter((k: { not_after: string | null }) => k.not_after === null)).toHaveLength(1);
    await hub.http.post('/api/v1/admin/signing-keys/rotate').set('authorization', `Bearer ${token}`).expect(403);

    const after = uniqueName('afterrotation');
    await publish(kazma(ns, after));
    expect((await verdict(after)).status).toBe('certified');
    const newCert = (await hub.http.get(`/api/v1/skills/${ns}/${after}/versions/1.0.0/certificate`).expect(200)).body;
    expect(newCert.key_id).not.toBe(oldCert.key_id);

    const keys = await trustedKeys();
    const statement = verifyBundleCertificate({ envelope: oldCert.envelope, keys, bundle: bytes });
    expect(statement.skill).toBe(`${ns}/${before}`);
    expect(() =>
      verifyBundleCertificate({ envelope: oldCert.envelope, keys, bundle: kazma(ns, before, { code: 'x = 1\n' }) }),
    ).toThrow(expect.objectContaining({ code: 'SIGNING.BUNDLE_MISMATCH' }));
  });

  it('a registry that keeps failing leaves the version inconclusive, never certified, and it is judged again later', async () => {
    const name = uniqueName('flaky');
    // A package no earlier test probed: the prober's cache must not answer for the registry.
    registries.npm.script('/mcp-server-kubernetes/2.4.0', [{ status: 503, json: { error: 'unavailable' } }]);
    await publish(
      kazma(ns, name, {
        extra: {
          mcp_servers: [
            { name: 'weather', type: 'stdio', command: 'npx', args: ['-y', 'mcp-server-kubernetes@2.4.0'] },
          ],
        },
      }),
    );
    const first = await verdict(name);
    expect(first).toMatchObject({ status: 'inconclusive', level: 'none' });
    await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/1.0.0/certificate`).expect(404);

    registries.reset();
    let later = first;
    for (let i = 0; i < 150 && later.status === 'inconclusive'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      later = (await hub.http.get(`/api/v1/skills/${ns}/${name}/versions/1.0.0/certification`).expect(200)).body;
    }
    expect(later.status).toBe('certified');
  });
});
