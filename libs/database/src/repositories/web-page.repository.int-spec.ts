/** The web pages' reads on real PostgreSQL: which certified versions run an MCP server, and a revocation's reason. */
import type { CertifiedServer } from '@skillhub/signing';
import { Revocation } from '../entities/revocation.entity';
import {
  openTestDatabase,
  seedVerdict,
  seedVersion,
  setCertification,
  uniqueSlug,
  type OpenDatabase,
} from '../testing/database-fixtures';
import { WebPageRepository } from './web-page.repository';

const server = (name: string, pkg: string, version = '1.2.3'): CertifiedServer => ({
  name,
  transport: 'stdio',
  launch: 'npm',
  argv: ['npx', '-y', `${pkg}@${version}`],
  url: null,
  package: { registry: 'npm', name: pkg, version, integrity: `sha512-${version}` },
  file: null,
  env: {},
  cwd: null,
  tools: { get_weather: 'c'.repeat(64) },
});

/** A verdict still valid: the fixture's default expiry is long past. */
const LATER = { expiresAt: '2099-01-01T00:00:00.000Z' };

describe('WebPageRepository', () => {
  let db: OpenDatabase;
  let pages: WebPageRepository;
  beforeAll(async () => {
    db = await openTestDatabase(2);
    pages = new WebPageRepository(db.ds);
  });
  afterAll(() => db.close());

  it('lists the versions certified now whose certificate runs the package, newest first, and only their servers of it', async () => {
    const pkg = `@acme/${uniqueSlug('mcp')}`;
    const other = `@acme/${uniqueSlug('other')}`;
    const older = await seedVersion(db.ds);
    await seedVerdict(db.ds, older.versionId, {
      ...LATER,
      servers: [server('weather', pkg, '1.0.0')],
      issuedAt: '2026-01-01T00:00:00.000Z',
    });
    const newer = await seedVersion(db.ds);
    await seedVerdict(db.ds, newer.versionId, {
      ...LATER,
      servers: [server('forecast', pkg), server('unrelated', other)],
      issuedAt: '2026-06-01T00:00:00.000Z',
    });
    const users = await pages.serverUsers(pkg, 10);
    expect(users.map((u) => `${u.author}/${u.name}`)).toEqual([
      `${newer.namespace}/${newer.name}`,
      `${older.namespace}/${older.name}`,
    ]);
    expect(users[0]!.servers.map((s) => s.name)).toEqual(['forecast']);
    expect(users[1]!.servers[0]!.package).toEqual({
      registry: 'npm',
      name: pkg,
      version: '1.0.0',
      integrity: 'sha512-1.0.0',
    });
    expect(await pages.serverUsers(pkg, 1)).toHaveLength(1);
  });

  it('leaves out revoked, expired, yanked and older-policy versions, and packages whose name only starts the same', async () => {
    const pkg = `${uniqueSlug('mcp')}`;
    const revoked = await seedVersion(db.ds);
    await setCertification(
      db.ds,
      await seedVerdict(db.ds, revoked.versionId, { ...LATER, servers: [server('a', pkg)] }),
      {
        status: 'revoked',
      },
    );
    const expired = await seedVersion(db.ds);
    await setCertification(
      db.ds,
      await seedVerdict(db.ds, expired.versionId, { ...LATER, servers: [server('a', pkg)] }),
      {
        expiresAt: new Date(Date.now() - 1000),
      },
    );
    const yanked = await seedVersion(db.ds, { status: 'yanked' });
    await seedVerdict(db.ds, yanked.versionId, { ...LATER, servers: [server('a', pkg)] });
    const stale = await seedVersion(db.ds);
    await setCertification(
      db.ds,
      await seedVerdict(db.ds, stale.versionId, { ...LATER, servers: [server('a', pkg)] }),
      {
        policyVersion: 1,
      },
    );
    const prefixed = await seedVersion(db.ds);
    await seedVerdict(db.ds, prefixed.versionId, { ...LATER, servers: [server('a', `${pkg}-extra`)] });
    const kept = await seedVersion(db.ds);
    await seedVerdict(db.ds, kept.versionId, { ...LATER, servers: [server('a', pkg)] });
    expect((await pages.serverUsers(pkg, 10)).map((u) => u.name)).toEqual([kept.name]);
  });

  it("reads a version's revocation, and null for one never revoked", async () => {
    const v = await seedVersion(db.ds);
    expect(await pages.revocationOf(v.versionId)).toBeNull();
    await db.ds.manager.insert(Revocation, {
      skillVersionId: v.versionId,
      reason: 'Leaked key.',
      revokedBy: 'operator',
      logIndex: '7',
    });
    expect(await pages.revocationOf(v.versionId)).toMatchObject({ reason: 'Leaked key.', logIndex: '7' });
  });
});
