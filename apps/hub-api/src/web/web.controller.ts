/**
 * Server-rendered pages: plain HTML forms and links (usable with JavaScript off), one
 * inline stylesheet, nothing loaded from elsewhere. Every page, error pages included,
 * carries a strict Content-Security-Policy and nosniff.
 */
import { Controller, Get, Inject, Logger, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import type { Request, Response } from 'express';
import { HUB_CONFIG, type HubConfig } from '@skillhub/config';
import { DomainError } from '@skillhub/errors';
import { DEFAULT_PAGE_SIZE } from '@skillhub/search';
import { CertificationStatusService } from '../certifications/certification-status.service';
import { errorResponse } from '../common/problem.filter';
import { ListSkillsQueryDto } from '../search/dto/list-skills.request.dto';
import { SkillsSearchService } from '../search/skills-search.service';
import { SkillsQueryService } from '../skills/skills-query.service';
import { TrustNotFoundError, TrustService } from '../trust/trust.service';
import type { CertificateResponseDto, LogEntryDto } from '../trust/dto/trust.dto';
import { errorPage, homePage, namespacePage, type SearchFilters, searchPage } from './pages';
import { serverPage } from './server-page';
import { skillPage } from './skill-page';
import { WebQueries } from './web-queries.service';
import { publicOrigin } from '../common/public-origin';

export const WEB_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'";
const NAMESPACE_PAGE_SIZE = 100;
const POPULAR_LISTED = 6;
/** Package names as npm and PyPI allow them (a scope, a slash). */
const PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[A-Za-z0-9][A-Za-z0-9._~-]{0,213}$/;

type RawQuery = Record<string, unknown>;

/** One value of a query parameter: the first when repeated, undefined when empty. */
function param(query: RawQuery, key: string): string | undefined {
  const value = Array.isArray(query[key]) ? (query[key] as unknown[])[0] : query[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** What a page names is not there: answered like any other not-found error. */
const notFound = (detail: string): DomainError => new DomainError('not-found', 'PAGE.NOT_FOUND', detail);

function messages(errors: ValidationError[]): string[] {
  return errors.flatMap((e) => [...Object.values(e.constraints ?? {}), ...messages(e.children ?? [])]);
}

@ApiExcludeController()
@Controller()
export class WebController {
  private readonly logger = new Logger('WebController');

  constructor(
    private readonly search: SkillsSearchService,
    private readonly skills: SkillsQueryService,
    private readonly certifications: CertificationStatusService,
    private readonly trust: TrustService,
    private readonly queries: WebQueries,
    @Inject(HUB_CONFIG) private readonly config: HubConfig,
  ) {}

  /** Where readers reach this hub, for snippets they paste elsewhere: HUB_PUBLIC_URL, else the origin they asked. */
  private origin(req: Request): string {
    return publicOrigin(req, this.config);
  }

  @Get()
  async home(@Res() res: Response): Promise<void> {
    await this.render(res, async () => {
      const [recent, popular, stats] = await Promise.all([
        this.queries.recentlyCertified(),
        this.search.list(
          plainToInstance(ListSkillsQueryDto, { sort: 'downloads', certified: true, per_page: POPULAR_LISTED }),
        ),
        this.search.stats(),
      ]);
      const totals = { total: stats.total_skills, certified: stats.certified_count, byCategory: stats.by_category };
      // Only what the hub vouches for, and only what someone downloaded.
      const downloaded = popular.items.filter((item) => item.downloads > 0);
      return homePage(recent, downloaded, totals, new Date());
    });
  }

  @Get('search')
  async searchPage(@Query() query: RawQuery, @Res() res: Response): Promise<void> {
    await this.render(res, async () => {
      const page = param(query, 'page');
      const filters: SearchFilters = {
        q: param(query, 'q'),
        author: param(query, 'author'),
        category: param(query, 'category'),
        tags: param(query, 'tags'),
        certified: param(query, 'certified'),
      };
      const dto = plainToInstance(ListSkillsQueryDto, { ...filters, page, per_page: DEFAULT_PAGE_SIZE });
      const errors = messages(await validate(dto, { whitelist: true }));
      if (errors.length) return { status: 400, body: searchPage(filters, null, errors) };
      filters.page = dto.page;
      return searchPage(filters, await this.search.list(dto), []);
    });
  }

  @Get('skills/:author/:name')
  async skill(
    @Param('author') author: string,
    @Param('name') name: string,
    @Query() query: RawQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.render(res, async () => {
      const wanted = param(query, 'version');
      const [skill, pinned] = await Promise.all([
        this.skills.getSkill(author, name),
        wanted ? this.skills.getVersion(author, name, wanted) : null,
      ]);
      const version = pinned ?? skill.latest;
      if (!version) throw notFound(`${author}/${name} has no published version.`);
      const [certification, certificate, extras] = await Promise.all([
        this.certifications.forSkill(author, name, version.version),
        this.optional(() => this.trust.certificate(author, name, version.version)),
        this.queries.versionExtras(author, name, version.version),
      ]);
      const logEntry: LogEntryDto | null = certificate
        ? await this.optional(() => this.trust.entry((certificate as CertificateResponseDto).log_index))
        : null;
      return skillPage({
        skill,
        version,
        certification,
        certificate,
        logEntry,
        extras,
        origin: this.origin(req),
        now: new Date(),
      });
    });
  }

  @Get('namespaces/:slug')
  async namespace(@Param('slug') slug: string, @Res() res: Response): Promise<void> {
    await this.render(res, async () => {
      if (!(await this.queries.namespaceExists(slug))) throw notFound(`There is no namespace ${slug}.`);
      const result = await this.search.list(
        plainToInstance(ListSkillsQueryDto, { author: slug, per_page: NAMESPACE_PAGE_SIZE, sort: 'updated' }),
      );
      return namespacePage(slug, result);
    });
  }

  @Get('servers/:name')
  async server(@Param('name') name: string, @Res() res: Response): Promise<void> {
    await this.render(res, async () => {
      const usage = PACKAGE_NAME.test(name) ? await this.queries.serverUsage(name) : [];
      if (!usage.length) throw notFound(`No certified skill runs the MCP server ${name}.`);
      return serverPage(name, usage, new Date());
    });
  }

  /** A trust read that may have nothing to show (no certificate yet). */
  private async optional<T>(read: () => Promise<T>): Promise<T | null> {
    try {
      return await read();
    } catch (err) {
      if (err instanceof TrustNotFoundError) return null;
      throw err;
    }
  }

  /** A page, or the error it threw answered as the API answers it (status, headers, title, detail) in HTML. */
  private async render(res: Response, page: () => Promise<string | { status: number; body: string }>): Promise<void> {
    let status = 200;
    let body: string;
    try {
      const out = await page();
      if (typeof out === 'string') body = out;
      else ({ status, body } = out);
    } catch (err) {
      const { problem, headers, log } = errorResponse(err);
      if (log)
        this.logger[log.level](`page ${res.req.path}: ${log.message}`, err instanceof Error ? err.stack : String(err));
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      status = problem.status;
      body = errorPage(problem.title, problem.detail);
    }
    res.setHeader('Content-Security-Policy', WEB_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.status(status).type('text/html; charset=utf-8').send(body);
  }
}
