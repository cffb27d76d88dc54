import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { KazmaSearchQueryDto, ListSkillsQueryDto } from './dto/list-skills.request.dto';
import { KazmaSearchResponseDto, SkillListResponseDto, StatsResponseDto } from './dto/skill-list.response.dto';
import { SkillsSearchService } from './skills-search.service';
import { DEFAULT_PAGE_SIZE, UNPAGED_LIST_CAP } from '@skillhub/search';
import { ApiProblems } from '../common/dto/api-problems.decorator';

@ApiTags('discovery')
@Controller('api/v1')
export class SkillsSearchController {
  constructor(private readonly search: SkillsSearchService) {}

  @Get('skills')
  @ApiOperation({
    summary: 'List and search skills (Kazma list shape with page/per_page, or limit/cursor)',
    description:
      `One item per skill (its latest version not yanked) unless all_versions=true. With q, results are ranked: name matches first, then description, tags and capabilities, then tool names; misspelt names still match. A page holds ${DEFAULT_PAGE_SIZE} items unless per_page or limit says otherwise; ` +
      `certified=true with no q and no paging (Kazma's \`certified\`, which does not page) answers every certified skill, up to ${UNPAGED_LIST_CAP}.`,
  })
  @ApiOkResponse({ type: SkillListResponseDto })
  @ApiProblems({ 400: ['VALIDATION', 'SEARCH.INVALID'] })
  list(@Query() query: ListSkillsQueryDto): Promise<SkillListResponseDto> {
    return this.search.list(query);
  }

  @Get('skills/search')
  @ApiOperation({
    summary: "Kazma's search route: `{items, total, query}`",
    description: `It does not page: every match, ranked, up to ${UNPAGED_LIST_CAP}; \`total\` counts them all.`,
  })
  @ApiOkResponse({ type: KazmaSearchResponseDto })
  @ApiProblems({ 400: ['VALIDATION'] })
  async kazmaSearch(@Query() query: KazmaSearchQueryDto): Promise<KazmaSearchResponseDto> {
    const { items, total, total_is_estimate } = await this.search.list({ ...query, per_page: UNPAGED_LIST_CAP });
    return { items, total, ...(total_is_estimate && { total_is_estimate }), query: query.q ?? '' };
  }

  @Get('stats')
  @ApiOperation({ summary: 'Totals: skills, certified skills, skills per category' })
  @ApiOkResponse({ type: StatsResponseDto })
  @ApiProblems()
  stats(): Promise<StatsResponseDto> {
    return this.search.stats();
  }
}
