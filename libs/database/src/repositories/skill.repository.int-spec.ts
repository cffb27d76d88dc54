/** Skills and versions on real PostgreSQL: the listing rule, races on one version, downloads, popular names. */
import { createHash } from 'node:crypto';
import { SkillRepository } from './skill.repository';
import { openTestDatabase, seedVersion, uniqueSlug, type OpenDatabase } from '../testing/database-fixtures';

describe('SkillRepository', () => {
  let db: OpenDatabase;
  let skills: SkillRepository;
  beforeAll(async () => {
    db = await openTestDatabase(8);
    skills = new SkillRepository(db.ds);
  });
  afterAll(() => db.close());

  const listed = async (skillId: string) => {
    const [row] = await db.ds.query(
      `SELECT v.version, s.search_vector IS NOT NULL AS searchable FROM skills s
       LEFT JOIN skill_versions v ON v.id = s.latest_version_id WHERE s.id = $1`,
      [skillId],
    );
    return row as { version: string | null; searchable: boolean };
  };

  it('lists the highest stable version not yanked, a pre-release only when nothing else is left, and nothing when all are yanked', async () => {
    const first = await seedVersion(db.ds, { version: '1.2.0' });
    const at = { namespace: first.namespace, name: first.name };
    expect(await listed(first.skillId)).toEqual({ version: '1.2.0', searchable: true });
    await seedVersion(db.ds, { ...at, version: '2.0.0-beta.1' });
    await seedVersion(db.ds, { ...at, version: '1.10.0' });
    expect(await listed(first.skillId)).toEqual({ version: '1.10.0', searchable: true });

    const yank = async (version: string) =>
      db.ds.transaction(async (m) =>
        skills.setStatus(m, await skills.versionOf(m, first.skillId, version), 'yanked', 'bad'),
      );
    await yank('1.10.0');
    expect((await listed(first.skillId)).version).toBe('1.2.0');
    await yank('1.2.0');
    expect((await listed(first.skillId)).version).toBe('2.0.0-beta.1');
    await yank('2.0.0-beta.1');
    expect(await listed(first.skillId)).toEqual({ version: null, searchable: false });
    expect(await skills.findVersion(first.namespace, first.name)).toBeNull();
    expect(await skills.findVersion(first.namespace, first.name, '1.2.0')).toMatchObject({
      status: 'yanked',
      statusMessage: 'bad',
    });
  });

  it('finds a version by author/name@version or the listed one, and nothing for another namespace', async () => {
    const v = await seedVersion(db.ds, { version: '3.1.4' });
    expect((await skills.findVersion(v.namespace, v.name, '3.1.4'))?.id).toBe(v.versionId);
    expect((await skills.findVersion(v.namespace, v.name))?.id).toBe(v.versionId);
    expect(await skills.findVersion(uniqueSlug(), v.name, '3.1.4')).toBeNull();
    expect((await skills.findSkill(v.namespace, v.name))?.latestVersionId).toBe(v.versionId);
    expect(await skills.findSkill(uniqueSlug(), v.name)).toBeNull();
  });

  it('keeps bundle bytes once per digest and gives them back', async () => {
    const bytes = Buffer.from('the bundle');
    const sha = createHash('sha256').update(bytes).digest('hex');
    await db.ds.transaction((m) => skills.storeBundle(m, sha, bytes));
    await db.ds.transaction((m) => skills.storeBundle(m, sha, bytes));
    expect(await skills.bundleBytes(sha)).toEqual(bytes);
    expect(Number((await db.ds.query(`SELECT count(*) AS n FROM blobs WHERE sha256 = $1`, [sha]))[0].n)).toBe(1);
  });

  it('inserts one of concurrent publishes of the same version; the others learn it exists', async () => {
    const v = await seedVersion(db.ds, { version: '1.0.0' });
    const row = (await skills.versionById(v.versionId))!;
    const {
      id: _id,
      skill: _s,
      bundle: _b,
      status: _st,
      statusMessage: _sm,
      statusChangedAt: _sc,
      downloads: _d,
      createdAt: _c,
      ...fields
    } = row;
    const racers = await Promise.all(
      Array.from({ length: 6 }, () =>
        db.ds.transaction((m) => skills.addVersion(m, { ...fields, version: '1.1.0', minor: 1 })),
      ),
    );
    expect(racers.filter((id) => id !== null)).toHaveLength(1);
    expect((await skills.findVersion(v.namespace, v.name))?.version).toBe('1.1.0');
  });

  it("adds gathered downloads to versions and their skills, and ranks other owners' skills by them", async () => {
    const mine = await seedVersion(db.ds);
    const theirs = await seedVersion(db.ds);
    await skills.addDownloads(new Map([[theirs.versionId, 1_000_000]]), new Map([[theirs.skillId, 1_000_000]]));
    await skills.addDownloads(new Map([[theirs.versionId, 5]]), new Map([[theirs.skillId, 5]]));
    expect((await skills.versionById(theirs.versionId))?.downloads).toBe('1000005');
    expect((await skills.skillById(theirs.skillId))?.downloads).toBe('1000005');

    const top = await skills.popular(mine.publisherId, 1);
    expect(top).toEqual([{ ref: `${theirs.namespace}/${theirs.name}`, owner: theirs.namespace }]);
    expect(await skills.popular(theirs.publisherId, 50)).not.toContainEqual(
      expect.objectContaining({ owner: theirs.namespace }),
    );
    // Never downloaded is not popular, however few skills there are.
    expect(await skills.popular(theirs.publisherId, 50)).not.toContainEqual(
      expect.objectContaining({ owner: mine.namespace }),
    );
  });

  it("lists a skill's versions highest first, up to a limit", async () => {
    const v = await seedVersion(db.ds, { version: '0.9.0' });
    for (const version of ['0.10.0', '0.2.0'])
      await seedVersion(db.ds, { namespace: v.namespace, name: v.name, version });
    expect((await skills.versionsOf(v.skillId, 10)).map((x) => x.version)).toEqual(['0.10.0', '0.9.0', '0.2.0']);
    expect(await skills.versionsOf(v.skillId, 1)).toHaveLength(1);
  });
});
