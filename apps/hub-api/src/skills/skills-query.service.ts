/** The read side of skills and versions, and the owner's lifecycle changes (deprecate, yank). */
import { Injectable } from '@nestjs/common';
import * as semver from 'semver';
import { DataSource, In } from 'typeorm';
import { CERTIFICATION_POLICY_VERSION } from '@skillhub/certification';
import { Blob, Certification, Namespace, Skill, SkillVersion } from '@skillhub/database';
import { assertCanActOn } from '../auth/namespace-access';
import type { Principal } from '../auth/principal';
import type { UpdateVersionStatusRequestDto } from './dto/update-version-status.request.dto';
import { CertificationSummaryDto, SkillResponseDto, SkillVersionResponseDto } from './dto/skill-version.response.dto';
import { SkillNotFoundError } from './skills.errors';
import { kazmaSkillId } from './skill-ref';
import { refreshListing } from './skill-sql';
import { findVersion } from './version-lookup';

const MAX_VERSIONS_LISTED = 1000;

export interface BundleDownload {
  versionId: string;
  skillId: string;
  sha256: string;
  content: Buffer;
  filename: string;
}

@Injectable()
export class SkillsQueryService {
  constructor(private readonly dataSource: DataSource) {}

  async getSkill(author: string, name: string): Promise<SkillResponseDto> {
    const skill = await this.findSkill(author, name);
    const versions = (
      await this.dataSource.getRepository(SkillVersion).find({
        where: { skillId: skill.id },
        order: { major: 'DESC', minor: 'DESC', patch: 'DESC' },
        take: MAX_VERSIONS_LISTED,
      })
    ).sort((a, b) => semver.rcompare(a.version, b.version));
    const certs = await this.certifications(versions.map((v) => v.id));
    const latest = versions.find((v) => v.id === skill.latestVersionId) ?? null;
    return {
      id: kazmaSkillId(author, name),
      author,
      name,
      created_at: skill.createdAt.toISOString(),
      updated_at: skill.updatedAt.toISOString(),
      latest: latest ? SkillVersionResponseDto.from(latest, author, name, certs.get(latest.id)) : null,
      versions: versions.map((v) => ({
        version: v.version,
        status: v.status,
        status_message: v.statusMessage,
        bundle_sha256: v.bundleSha256,
        published_at: v.createdAt.toISOString(),
        certification: CertificationSummaryDto.from(certs.get(v.id)),
      })),
    };
  }

  async getVersion(author: string, name: string, version: string): Promise<SkillVersionResponseDto> {
    const v = await findVersion(this.dataSource.manager, author, name, version);
    const certs = await this.certifications([v.id]);
    return SkillVersionResponseDto.from(v, author, name, certs.get(v.id));
  }

  async getBundle(author: string, name: string, version: string): Promise<BundleDownload> {
    const v = await findVersion(this.dataSource.manager, author, name, version);
    const blob = await this.dataSource
      .getRepository(Blob)
      .createQueryBuilder('b')
      .addSelect('b.content')
      .where('b.sha256 = :sha', { sha: v.bundleSha256 })
      .getOneOrFail();
    return {
      versionId: v.id,
      skillId: v.skillId,
      sha256: blob.sha256,
      content: blob.content,
      filename: `${author}-${name}-${version}.tar.gz`,
    };
  }

  async setVersionStatus(
    principal: Principal,
    author: string,
    name: string,
    version: string,
    dto: UpdateVersionStatusRequestDto,
  ): Promise<SkillVersionResponseDto> {
    await this.dataSource.transaction(async (m) => {
      const namespace = await m.findOneBy(Namespace, { slug: author });
      if (!namespace) throw new SkillNotFoundError(kazmaSkillId(author, name, version));
      assertCanActOn(principal, namespace);
      const v = await findVersion(m, author, name, version);
      await m.update(SkillVersion, v.id, {
        status: dto.status,
        statusMessage: dto.message ?? null,
        statusChangedAt: new Date(),
      });
      await refreshListing(m, v.skillId);
    });
    return this.getVersion(author, name, version);
  }

  private async findSkill(author: string, name: string): Promise<Skill> {
    const skill = await this.dataSource
      .getRepository(Skill)
      .createQueryBuilder('s')
      .innerJoin(Namespace, 'n', 'n.id = s.namespace_id')
      .where('n.slug = :author AND s.name = :name', { author, name })
      .getOne();
    if (!skill) throw new SkillNotFoundError(kazmaSkillId(author, name));
    return skill;
  }

  private async certifications(versionIds: string[]): Promise<Map<string, Certification>> {
    if (!versionIds.length) return new Map();
    const rows = await this.dataSource.getRepository(Certification).findBy({
      skillVersionId: In(versionIds),
      policyVersion: CERTIFICATION_POLICY_VERSION,
    });
    return new Map(rows.map((c) => [c.skillVersionId, c]));
  }
}
