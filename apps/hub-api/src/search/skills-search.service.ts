/**
 * `GET /api/v1/skills`: the request's paging mode and cursor read and checked, the search run by
 * SkillSearchRepository (whose SQL is the ranking rule of libs/search), and its rows shaped as
 * Kazma's list items.
 */
import { Injectable } from '@nestjs/common';
import { positionColumns, SkillSearchRepository, type SkillSearchRow } from '@skillhub/database';
import { DomainError } from '@skillhub/errors';
import { type CursorValues, DEFAULT_PAGE_SIZE, decodeCursor, encodeCursor, UNPAGED_LIST_CAP } from '@skillhub/search';
import { AbortableGate } from '../common/abortable-gate';
import { currentRequestSignal } from '../common/request-context';
import { kazmaSkillId } from '../skills/skill-ref';
import type { ListSkillsQueryDto, SkillSort } from './dto/list-skills.request.dto';
import type { SkillListItemDto, SkillListResponseDto, StatsResponseDto } from './dto/skill-list.response.dto';

/**
 * Searches run at once: fewer than the pool's connections (PostgreSQL: 10), so other routes keep
 * some; the rest wait in a line they leave when their client does (common/abortable-gate.ts).
 */
const SEARCHES_AT_ONCE = 8;

export class InvalidPagingError extends DomainError {
  constructor(message: string, path: string) {
    super('invalid', 'SEARCH.INVALID', message, [{ path, message, severity: 'error' }]);
  }
}

@Injectable()
export class SkillsSearchService {
  private readonly searches = new AbortableGate(SEARCHES_AT_ONCE);

  constructor(private readonly search: SkillSearchRepository) {}

  async list(query: ListSkillsQueryDto): Promise<SkillListResponseDto> {
    const cursorMode = query.limit !== undefined || query.cursor !== undefined;
    if (cursorMode && (query.page !== undefined || query.per_page !== undefined)) {
      throw new InvalidPagingError('Use either page/per_page or limit/cursor, not both.', 'cursor');
    }
    const q = query.q?.trim() ? query.q : undefined;
    const sort: SkillSort = query.sort ?? (q ? 'relevance' : 'name');
    if (sort === 'relevance' && !q) throw new InvalidPagingError('sort=relevance needs q.', 'sort');
    // Kazma's `certified` sends no paging at all and reads `items` once: it gets every certified skill.
    const kazmaCertified = query.certified === true && !q && !cursorMode && !query.page && !query.per_page;
    const pageSize =
      (cursorMode ? query.limit : query.per_page) ?? (kazmaCertified ? UNPAGED_LIST_CAP : DEFAULT_PAGE_SIZE);

    let offset = cursorMode ? 0 : ((query.page ?? 1) - 1) * pageSize;
    let after: CursorValues | null = null;
    if (query.cursor) {
      // A keyset cursor holds one value per keyset column; a cursor of a sort without one, the offset.
      const columns = positionColumns(sort, query.all_versions ?? false);
      const values = decodeCursor(query.cursor, sort, columns);
      if (!values) throw new InvalidPagingError('The cursor is malformed or was made for another sort.', 'cursor');
      if (columns[0] === 'offset') offset = values[0] as number;
      else after = values;
    }

    const signal = currentRequestSignal();
    const page = await this.searches.run(signal, () =>
      this.search.search({
        q,
        author: query.author,
        category: query.category,
        format: query.format,
        capabilities: query.capabilities,
        tags: query.tags,
        certified: query.certified,
        allVersions: query.all_versions ?? false,
        sort,
        limit: pageSize,
        start: after ? { after } : { offset },
        signal,
      }),
    );
    const items = page.rows.map(toItem);
    // The flag appears only on an estimate, so Kazma's shape is unchanged for every exact total.
    const totals = page.totalIsEstimate
      ? { total: page.total, total_is_estimate: true as const }
      : { total: page.total };
    if (!cursorMode) return { items, ...totals, page: query.page ?? 1, per_page: pageSize };
    const last = page.rows[pageSize - 1];
    // A keyset sort goes on after the last row's position; one without, at the next offset.
    const next = !page.more || !last ? null : (last.position ?? [offset + pageSize]);
    return { items, ...totals, next_cursor: next ? encodeCursor(sort, next) : null };
  }

  async stats(): Promise<StatsResponseDto> {
    const rows = await this.search.stats();
    return {
      total_skills: rows.reduce((n, r) => n + r.total, 0),
      certified_count: rows.reduce((n, r) => n + r.certified, 0),
      by_category: Object.fromEntries(rows.map((r) => [r.category, r.total])),
    };
  }
}

function toItem(r: SkillSearchRow): SkillListItemDto {
  return {
    id: kazmaSkillId(r.author, r.name, r.version),
    name: r.name,
    author: r.author,
    description: r.description,
    version: r.version,
    category: r.category,
    tags: r.tags,
    certified: r.certified,
    downloads: r.downloads,
    capabilities: r.capabilities,
    format: r.format,
    certification_level: r.certified ? (r.level ?? 'none') : 'none',
    updated_at: r.updatedAt.toISOString(),
  };
}
