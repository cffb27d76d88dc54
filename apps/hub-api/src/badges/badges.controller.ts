import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiNotModifiedResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { cleanLabel } from './badge-style';
import { BadgesService } from './badges.service';
import { ApiProblems } from '../common/dto/api-problems.decorator';
import { BadgeQueryDto } from './dto/badge.request.dto';
import { ShieldsEndpointDto } from './dto/badge.response.dto';

/**
 * As shields.io's badges are held: a short max-age, so a verdict change shows within a minute in
 * every cache that honours it (GitHub's camo, CDNs, browsers); stale-while-revalidate, so a
 * README is never held up by this hub while a cache fetches the new badge behind the stale one
 * (served once, then replaced); stale-if-error, so a badge keeps rendering while the hub is down.
 * This process itself answers from memory (badges.service.ts), so the short max-age costs it little.
 */
export const BADGE_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600, stale-if-error=86400';

/** Badges people embed in READMEs: always 200 (a grey "not found" renders where a 404 would break the image). */
@ApiTags('badges')
@Controller('api/v1/skills')
export class BadgesController {
  constructor(private readonly badges: BadgesService) {}

  @Get(':author/:name/badge.svg')
  @ApiOperation({
    summary: 'SVG certification badge (ETag, 1-minute cache, stale-while-revalidate; "not found" for an unknown skill)',
  })
  @ApiProduces('image/svg+xml')
  @ApiOkResponse({
    description: 'An SVG image; `X-Skill-Hub-Badge: not-found` when the skill is unknown.',
    schema: { type: 'string', example: '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="20">…</svg>' },
  })
  @ApiNotModifiedResponse({ description: 'If-None-Match named the current ETag.' })
  @ApiProblems({ 400: ['VALIDATION'] })
  async svg(
    @Param('author') author: string,
    @Param('name') name: string,
    @Query() query: BadgeQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const badge = await this.badges.svg(author, name, query);
    res.setHeader('ETag', badge.etag);
    res.setHeader('Cache-Control', BADGE_CACHE_CONTROL);
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (!badge.found) res.setHeader('X-Skill-Hub-Badge', 'not-found');
    // Express compares If-None-Match with the ETag just set (a list, weak validators, `*`).
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    res.status(200).type('image/svg+xml').send(badge.svg);
  }

  @Get(':author/:name/badge.json')
  @ApiOperation({ summary: 'shields.io endpoint badge: `https://img.shields.io/endpoint?url=<this URL>`' })
  @ApiOkResponse({ type: ShieldsEndpointDto, description: '`X-Skill-Hub-Badge: not-found` when the skill is unknown.' })
  @ApiProblems({ 400: ['VALIDATION'] })
  async json(
    @Param('author') author: string,
    @Param('name') name: string,
    @Query() query: BadgeQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ShieldsEndpointDto> {
    const face = await this.badges.face(author, name, query.version);
    res.setHeader('Cache-Control', BADGE_CACHE_CONTROL);
    if (!face.found) res.setHeader('X-Skill-Hub-Badge', 'not-found');
    return { schemaVersion: 1, label: cleanLabel(query.label), message: face.message, color: face.color };
  }
}
