/**
 * The database's medium tests: a migrated database of a test file's own, and rows written the
 * way the hub writes them (through the repositories), one skill version at a time.
 */
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { CertificationReport } from '@skillhub/certification';
import { createTestDatabase, type TestDatabase } from '@skillhub/testing';
import { buildDataSourceOptions } from '../data-source';
import type { CertificationStatus } from '../entities/certification.entity';
import type { VersionStatus } from '../entities/skill-version.entity';
import { CertificationRepository } from '../repositories/certification.repository';
import { NamespaceRepository } from '../repositories/namespace.repository';
import { SkillRepository, type NewVersion } from '../repositories/skill.repository';
import { certifiedReport } from './report-fixtures';

export interface OpenDatabase {
  ds: DataSource;
  close(): Promise<void>;
}

/** A fresh migrated database and a data source on it; `close` destroys both. */
export async function openTestDatabase(poolSize = 4): Promise<OpenDatabase> {
  const db: TestDatabase = await createTestDatabase();
  const ds = new DataSource(buildDataSourceOptions(db.url, { poolSize }));
  await ds.initialize();
  return {
    ds,
    async close() {
      await ds.destroy();
      await db.drop();
    },
  };
}

export const uniqueSlug = (prefix = 'ns'): string => `${prefix}-${randomBytes(4).toString('hex')}`;

export interface VersionSpec {
  namespace?: string;
  name?: string;
  version?: string;
  description?: string;
  category?: string | null;
  tags?: string[];
  capabilities?: string[];
  tools?: NewVersion['tools'];
  status?: VersionStatus;
}

export interface SeededVersion {
  publisherId: string;
  namespaceId: string;
  namespace: string;
  skillId: string;
  name: string;
  versionId: string;
  version: string;
  bundleSha256: string;
}

/** Publishes one version as the publisher does (namespace claimed, skill upserted, listing moved). */
export async function seedVersion(ds: DataSource, spec: VersionSpec = {}): Promise<SeededVersion> {
  const namespaces = new NamespaceRepository(ds);
  const skills = new SkillRepository(ds);
  const slug = spec.namespace ?? uniqueSlug();
  const name = spec.name ?? uniqueSlug('skill');
  const version = spec.version ?? '1.0.0';
  const bytes = randomBytes(32);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const [major, minor, patch] = version.split('-')[0]!.split('.').map(Number) as [number, number, number];
  return ds.transaction(async (m) => {
    const publisher = await namespaces.publisherNamed(m, `${slug} publisher`);
    const namespace = await namespaces.claim(m, slug, publisher.id);
    const skillId = await skills.upsertSkill(m, namespace.id, name);
    await skills.storeBundle(m, sha256, bytes);
    const versionId = await skills.addVersion(m, {
      skillId,
      version,
      major,
      minor,
      patch,
      prerelease: version.includes('-') ? version.slice(version.indexOf('-') + 1) : null,
      format: 'kazma',
      author: slug,
      description: spec.description ?? `The ${name} skill.`,
      license: 'MIT',
      category: spec.category === undefined ? 'utilities' : spec.category,
      capabilities: spec.capabilities ?? [],
      permissions: [],
      tags: spec.tags ?? [],
      tools: spec.tools ?? [],
      mcpServers: [],
      entryPoint: null,
      manifestPath: 'skill_manifest.yaml',
      manifest: { name, version },
      files: [],
      bundleSha256: sha256,
      bundleSize: bytes.length,
      publishedBy: publisher.id,
    });
    if (!versionId) throw new Error(`${slug}/${name}@${version} exists already`);
    const seeded = {
      publisherId: publisher.id,
      namespaceId: namespace.id,
      namespace: slug,
      skillId,
      name,
      versionId,
      version,
      bundleSha256: sha256,
    };
    if (spec.status && spec.status !== 'active') {
      await skills.setStatus(m, await skills.versionOf(m, skillId, version), spec.status, null);
    }
    return seeded;
  });
}

/** A verdict recorded on the version's current certification (written pending first, as publish does). */
export async function seedVerdict(
  ds: DataSource,
  versionId: string,
  report: Partial<CertificationReport> = {},
): Promise<string> {
  const certifications = new CertificationRepository(ds);
  return ds.transaction(async (m) => {
    await certifications.addPending(m, versionId);
    const row = (await certifications.current(versionId, m))!;
    await certifications.recordVerdict(m, row.id, certifiedReport(report));
    return row.id;
  });
}

/** Sets a certification's stored status and expiry directly: the states time and revocations bring. */
export async function setCertification(
  ds: DataSource,
  id: string,
  values: { status?: CertificationStatus; expiresAt?: Date | null; policyVersion?: number },
): Promise<void> {
  await ds.query(
    `UPDATE "certifications" SET "status" = coalesce($2, "status"),
       "expires_at" = CASE WHEN $3::boolean THEN $4::timestamptz ELSE "expires_at" END,
       "policy_version" = coalesce($5, "policy_version")
     WHERE "id" = $1`,
    [id, values.status ?? null, 'expiresAt' in values, values.expiresAt ?? null, values.policyVersion ?? null],
  );
}
