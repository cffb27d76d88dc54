/** The read side of skills and versions, and the owner's lifecycle changes (deprecate, yank). */
import { Injectable } from '@nestjs/common';
import * as semver from 'semver';
import { DataSource } from 'typeorm';
import { CertificationRepository, NamespaceRepository, SkillRepository, type Skill } from '@skillhub/database';
import { VerdictEvents } from '@skillhub/queue';
import { assertCanActOn } from '../auth/namespace-access';
import type { Principal } from '../auth/principal';
import type { UpdateVersionStatusRequestDto } from './dto/update-version-status.request.dto';
import { CertificationSummaryDto, SkillResponseDto, SkillVersionResponseDto } from './dto/skill-version.response.dto';
import { SkillNotFoundError } from './skills.errors';
import { kazmaSkillId } from './skill-ref';
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
  constructor(
    private readonly dataSource: DataSource,
    private readonly skills: SkillRepository,
    private readonly namespaces: NamespaceRepository,
    private readonly certifications: CertificationRepository,
    private readonly verdicts: VerdictEvents,
  ) {}

  async getSkill(author: string, name: string): Promise<SkillResponseDto> {
    const skill = await this.findSkill(author, name);
    const versions = (await this.skills.versionsOf(skill.id, MAX_VERSIONS_LISTED)).sort((a, b) =>
      semver.rcompare(a.version, b.version),
    );
    const certs = await this.certifications.currentOf(versions.map((v) => v.id));
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
    const v = await findVersion(this.skills, author, name, version);
    return SkillVersionResponseDto.from(v, author, name, await this.certifications.current(v.id));
  }

  async getBundle(author: string, name: string, version: string): Promise<BundleDownload> {
    const v = await findVersion(this.skills, author, name, version);
    return {
      versionId: v.id,
      skillId: v.skillId,
      sha256: v.bundleSha256,
      content: await this.skills.bundleBytes(v.bundleSha256),
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
      const namespace = await this.namespaces.bySlug(author, m);
      if (!namespace) throw new SkillNotFoundError(kazmaSkillId(author, name, version));
      assertCanActOn(principal, namespace);
      const v = await findVersion(this.skills, author, name, version, m);
      await this.skills.setStatus(m, v, dto.status, dto.message ?? null);
    });
    await this.verdicts.changed(`${author}/${name}`);
    return this.getVersion(author, name, version);
  }

  private async findSkill(author: string, name: string): Promise<Skill> {
    const skill = await this.skills.findSkill(author, name);
    if (!skill) throw new SkillNotFoundError(kazmaSkillId(author, name));
    return skill;
  }
}
