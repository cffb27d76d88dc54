/**
 * Badges from memory: a skill's face (its verdict as a badge says it) is read from the database
 * once and held until that skill's verdict changes (VerdictEvents: a certification recorded, a
 * version published, yanked, deprecated or revoked, on this process or another), its
 * certificate expires, or FACE_TTL_MS passes; the SVG of a face in a style and label is drawn
 * and hashed once. A warm revalidation (If-None-Match → 304) reads neither the database nor
 * badge-maker. While other processes' changes might not reach this one (its Redis subscription
 * is down), nothing is served from or put in the face cache.
 */
import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { makeBadge } from 'badge-maker';
import { VerdictEvents, type VerdictChange } from '@skillhub/queue';
import { CertificationStatusService } from '../certifications/certification-status.service';
import { SkillNotFoundError } from '../skills/skills.errors';
import { badgeFace, type BadgeFace, type BadgeStyle, cleanLabel } from './badge-style';
import type { BadgeQueryDto } from './dto/badge.request.dto';
import { VerdictCache } from './verdict-cache';

export interface RenderedBadge {
  svg: string;
  etag: string;
  found: boolean;
}

export type SkillFace = BadgeFace & { found: boolean };

/** Faces held: one per skill and version asked for. */
const FACES_HELD = 10_000;
/**
 * SVGs held, one per face, style and label: without a custom label there are fewer than 100
 * (the faces times the five styles); the bound keeps made-up labels from taking memory.
 */
const DRAWINGS_HELD = 1_000;
/**
 * The longest a face is held without a change heard: the bound on staleness should a change's
 * message be lost (its writer could not reach Redis while this process could).
 */
const FACE_TTL_MS = 60_000;

@Injectable()
export class BadgesService {
  private readonly faces = new VerdictCache<SkillFace>(FACES_HELD);
  /** Keyed by what is drawn, so never stale: nothing here is ever invalidated. */
  private readonly drawn = new VerdictCache<Omit<RenderedBadge, 'found'>>(DRAWINGS_HELD);

  constructor(
    private readonly status: CertificationStatusService,
    private readonly verdicts: VerdictEvents,
  ) {
    verdicts.listen((change: VerdictChange) =>
      'skill' in change ? this.faces.invalidate(change.skill) : this.faces.clear(),
    );
  }

  async face(author: string, name: string, version?: string): Promise<SkillFace> {
    const skill = `${author}/${name}`;
    const key = `${skill}@${version ?? ''}`;
    const complete = this.verdicts.complete;
    const held = complete ? this.faces.get(key) : undefined;
    if (held) return held;
    const epoch = this.faces.epoch;
    const { face, until } = await this.read(author, name, version);
    if (complete && this.verdicts.complete) this.faces.set(skill, key, face, until, epoch);
    return face;
  }

  /** badge-maker escapes every text it puts into the SVG; colours come from a fixed set. */
  async svg(author: string, name: string, query: BadgeQueryDto): Promise<RenderedBadge> {
    const face = await this.face(author, name, query.version);
    const style: BadgeStyle = query.style ?? 'flat';
    const label = cleanLabel(query.label);
    const key = `${style}\n${label}\n${face.color}\n${face.message}`;
    let drawn = this.drawn.get(key);
    if (!drawn) {
      const svg = makeBadge({ label, message: face.message, color: face.color, style });
      drawn = { svg, etag: `"${createHash('sha256').update(svg).digest('base64url').slice(0, 27)}"` };
      this.drawn.set('', key, drawn, Infinity, this.drawn.epoch);
    }
    return { ...drawn, found: face.found };
  }

  /** The face now, and until when it holds: a certified face turns expired with its certificate. */
  private async read(author: string, name: string, version?: string): Promise<{ face: SkillFace; until: number }> {
    const until = Date.now() + FACE_TTL_MS;
    try {
      const s = await this.status.forSkill(author, name, version);
      const expires = s.status === 'certified' && s.expires_at ? Date.parse(s.expires_at) : Infinity;
      return { face: { ...badgeFace(s.status, s.level), found: true }, until: Math.min(until, expires) };
    } catch (err) {
      if (!(err instanceof SkillNotFoundError)) throw err;
      return { face: { ...badgeFace('not-found', 'none'), found: false }, until };
    }
  }
}
