/** What the MCP sub-registry reads, on real PostgreSQL: certificates that hold now, their servers, and when that set moves. */
import { generateKeyPairSync } from 'node:crypto';
import { keyId, signCertificate, type CertificateStatement, type CertifiedServer } from '@skillhub/signing';
import { CertificationRepository } from './certification.repository';
import { McpServerRepository } from './mcp-server.repository';
import {
  openTestDatabase,
  seedVerdict,
  seedVersion,
  setCertification,
  type OpenDatabase,
} from '../testing/database-fixtures';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const DAY = 86_400_000;

const server = (name: string, pkg: string, version: string): CertifiedServer => ({
  name,
  transport: 'stdio',
  launch: 'npm',
  argv: ['npx', '-y', `${pkg}@${version}`],
  url: null,
  package: { registry: 'npm', name: pkg, version, integrity: `sha512-${name}` },
  file: null,
  env: {},
  cwd: null,
  tools: { echo: 'c'.repeat(64) },
});

describe('McpServerRepository', () => {
  let db: OpenDatabase;
  let repo: McpServerRepository;
  let logIndex = 0;
  beforeAll(async () => {
    db = await openTestDatabase();
    repo = new McpServerRepository(db.ds);
  });
  afterAll(() => db.close());

  /** A version certified `level` with a signed certificate listing `servers`, as record() stores it. */
  const certified = async (servers: CertifiedServer[], level: 'basic' | 'standard' = 'standard') => {
    const v = await seedVersion(db.ds);
    const issuedAt = new Date();
    const expiresAt = new Date(issuedAt.getTime() + 90 * DAY);
    const certificationId = await seedVerdict(db.ds, v.versionId, {
      level,
      servers,
      issuedAt: issuedAt.toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    const statement: CertificateStatement = {
      skill: `${v.namespace}/${v.name}`,
      version: v.version,
      bundleSha256: v.bundleSha256,
      manifestSha256: 'd'.repeat(64),
      entryPointChecksum: null,
      files: {},
      capabilities: [],
      permissions: [],
      codeCapabilities: [],
      packages: servers.flatMap((s) => (s.package ? [s.package] : [])),
      tools: {},
      servers,
      level,
      checkResultsSha256: 'f'.repeat(64),
      issuedAt: issuedAt.toISOString(),
      expiresAt: expiresAt.toISOString(),
      logIndex: logIndex++,
    };
    await db.ds.transaction((m) =>
      new CertificationRepository(db.ds).addCertificate(m, {
        certificationId,
        keyId: keyId(publicKey),
        envelope: signCertificate(statement, privateKey, keyId(publicKey)),
        logIndex: statement.logIndex,
        issuedAt,
        expiresAt,
      }),
    );
    const [row] = await db.ds.query(`SELECT "id" FROM "certificates" WHERE "certification_id" = $1`, [certificationId]);
    return { ...v, certificationId, certificateId: (row as { id: string }).id, statement };
  };

  it('reads the certificates that hold now with the skill they name, and each one’s servers from the signed statement', async () => {
    const weather = await certified([server('weather', '@acme/weather-mcp', '1.2.3')]);
    const both = await certified([server('a', 'pkg-a', '1.0.0'), server('b', 'pkg-b', '2.0.0')], 'basic');
    const pending = await seedVersion(db.ds);
    await db.ds.transaction((m) => new CertificationRepository(db.ds).addPending(m, pending.versionId));

    expect((await repo.holdingNow()).map((c) => c.id).sort()).toEqual(
      [weather.certificateId, both.certificateId].sort(),
    );
    const read = await repo.certificates([weather.certificateId, both.certificateId]);
    expect(read.find((s) => s.certificateId === both.certificateId)).toEqual({
      certificateId: both.certificateId,
      skill: `${both.namespace}/${both.name}`,
      version: '1.0.0',
      level: 'basic',
      logIndex: both.statement.logIndex,
      issuedAt: new Date(both.statement.issuedAt),
      expiresAt: new Date(both.statement.expiresAt),
      servers: both.statement.servers,
    });
    expect(read.find((s) => s.certificateId === weather.certificateId)?.servers).toEqual(weather.statement.servers);
    expect(await repo.certificates([])).toEqual([]);
  });

  it('moves its generation on a certification and a revocation, and only then; reports its clock for expiries', async () => {
    const generation = async () => (await repo.changes()).generation;
    const before = await generation();
    expect(await generation()).toBe(before);
    const added = await certified([server('x', 'pkg-x', '1.0.0')]);
    const withAdded = await generation();
    expect(withAdded).not.toBe(before);

    // A verdict that changes nothing the set holds (a pending version elsewhere) leaves it.
    const pending = await seedVersion(db.ds);
    await db.ds.transaction((m) => new CertificationRepository(db.ds).addPending(m, pending.versionId));
    expect(await generation()).toBe(withAdded);

    await setCertification(db.ds, added.certificationId, { status: 'revoked' });
    const revoked = await generation();
    expect(revoked).not.toBe(withAdded);
    expect((await repo.holdingNow()).map((c) => c.id)).not.toContain(added.certificateId);

    // An expiry writes nothing: what a reader built says when it ends, read against this clock.
    const expiring = await certified([server('y', 'pkg-y', '1.0.0')]);
    const { now } = await repo.changes();
    const holding = (await repo.holdingNow()).find((c) => c.id === expiring.certificateId);
    expect(holding!.expiresAt!.getTime()).toBeGreaterThan(now.getTime());
    await setCertification(db.ds, expiring.certificationId, { expiresAt: new Date(now.getTime() - 1000) });
    expect((await repo.holdingNow()).map((c) => c.id)).not.toContain(expiring.certificateId);
  });

  it('refuses a stored envelope that is not a certificate, as a corrupt record', async () => {
    const stored = await certified([server('z', 'pkg-z', '1.0.0')]);
    await db.ds.query(
      `UPDATE "certificates" SET "envelope" = jsonb_set("envelope", '{payloadType}', '"text/plain"') WHERE "id" = $1`,
      [stored.certificateId],
    );
    await expect(repo.certificates([stored.certificateId])).rejects.toMatchObject({ code: 'REPORT.CORRUPT' });
  });
});
