import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { makeBadge } from 'badge-maker';
import { CertificationStatusService } from '../certifications/certification-status.service';
import { SkillNotFoundError } from '../skills/skills.errors';
import { badgeFace, type BadgeFace, type BadgeStyle, cleanLabel } from './badge-style';
import type { BadgeQueryDto } from './dto/badge.request.dto';

export interface RenderedBadge {
  svg: string;
  etag: string;
  found: boolean;
}

@Injectable()
export class BadgesService {
  constructor(private readonly status: CertificationStatusService) {}

  async face(author: string, name: string, version?: string): Promise<BadgeFace & { found: boolean }> {
    try {
      const s = await this.status.forSkill(author, name, version);
      return { ...badgeFace(s.status, s.level), found: true };
    } catch (err) {
      if (!(err instanceof SkillNotFoundError)) throw err;
      return { ...badgeFace('not-found', 'none'), found: false };
    }
  }

  /** badge-maker escapes every text it puts into the SVG; colours come from a fixed set. */
  async svg(author: string, name: string, query: BadgeQueryDto): Promise<RenderedBadge> {
    const face = await this.face(author, name, query.version);
    const style: BadgeStyle = query.style ?? 'flat';
    const svg = makeBadge({ label: cleanLabel(query.label), message: face.message, color: face.color, style });
    const etag = `"${createHash('sha256').update(svg).digest('base64url').slice(0, 27)}"`;
    return { svg, etag, found: face.found };
  }
}
