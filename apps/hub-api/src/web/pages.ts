/** The web pages as plain template functions over what the services return. */
import { DEFAULT_PAGE_SIZE } from '@skillhub/search';
import type { SkillListItemDto, SkillListResponseDto } from '../search/dto/skill-list.response.dto';
import { counted, html, queryString, type SafeHtml, seg } from './html';
import { layout } from './layout';
import { timeTag } from './time';

export interface RecentlyCertified {
  author: string;
  name: string;
  version: string;
  description: string;
  level: string;
  issued_at: string | null;
}

export interface SearchFilters {
  q?: string;
  author?: string;
  category?: string;
  tags?: string;
  certified?: string;
  page?: number;
}

export interface HomeTotals {
  total: number;
  certified: number;
  /** Listed skills per category. */
  byCategory: Record<string, number>;
}

export const skillHref = (author: string, name: string, version?: string) =>
  `/skills/${seg(author)}/${seg(name)}${version ? queryString({ version }) : ''}`;
export const namespaceHref = (slug: string) => `/namespaces/${seg(slug)}`;
/** An MCP server's page, by the package (npm or PyPI) it runs. */
export const serverHref = (packageName: string) => `/servers/${seg(packageName)}`;

function certPill(certified: boolean, level: string): SafeHtml {
  return certified
    ? html`<span class="pill ok">certified · ${level}</span>`
    : html`<span class="pill">not certified</span>`;
}

export function statusPill(status: string, level: string): SafeHtml {
  const cls = status === 'certified' ? 'ok' : status === 'failed' || status === 'revoked' ? 'bad' : '';
  return html`<span class="pill ${cls}">${status}${status === 'certified' ? ` · ${level}` : ''}</span>`;
}

function skillItem(s: SkillListItemDto): SafeHtml {
  return html`<li>
    <h3><a href="${skillHref(s.author, s.name)}">${s.author}/${s.name}</a> <span class="meta">${s.version}</span></h3>
    <p>${s.description}</p>
    <p class="meta">
      ${certPill(s.certified, s.certification_level)} ${s.category ?? ''} · ${counted(s.downloads, 'download')} · by
      <a href="${namespaceHref(s.author)}">${s.author}</a>
    </p>
  </li>`;
}

export function skillList(items: SkillListItemDto[]): SafeHtml {
  return items.length
    ? html`<ul class="skills">
        ${items.map(skillItem)}
      </ul>`
    : html`<p>No skills found.</p>`;
}

export function homePage(
  recent: RecentlyCertified[],
  popular: SkillListItemDto[],
  totals: HomeTotals,
  now: Date,
): string {
  const categories = Object.entries(totals.byCategory).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  return layout(
    { title: 'Home' },
    html`<h1>Skill Hub</h1>
      <p>
        ${totals.total} skills, ${totals.certified} of them certified. Every certification is explained, signed and
        logged.
      </p>
      ${
        categories.length
          ? html`<section aria-labelledby="categories">
              <h2 id="categories">Categories</h2>
              <ul class="categories">
                ${categories.map(
                  ([category, n]) =>
                    html`<li>
                      <a href="/search${queryString({ category })}">${category}</a> <span class="meta">${n}</span>
                    </li>`,
                )}
              </ul>
            </section>`
          : ''
      }
      <div class="columns">
        <section aria-labelledby="recent">
          <h2 id="recent">Recently certified</h2>
          ${
            recent.length
              ? html`<ul class="skills">
                  ${recent.map(
                    (r) =>
                      html`<li>
                        <h3>
                          <a href="${skillHref(r.author, r.name, r.version)}">${r.author}/${r.name}</a>
                          <span class="meta">${r.version}</span>
                        </h3>
                        <p>${r.description}</p>
                        <p class="meta">
                          <span class="pill ok">certified · ${r.level}</span>
                          ${r.issued_at ? html`${timeTag(r.issued_at, now)}` : ''}
                        </p>
                      </li>`,
                  )}
                </ul>`
              : html`<p>No skill is certified yet.</p>`
          }
          <p><a href="/search?certified=true">All certified skills</a> · <a href="/search">Browse every skill</a></p>
        </section>
        <section aria-labelledby="popular">
          <h2 id="popular">Most downloaded</h2>
          ${popular.length ? skillList(popular) : html`<p>No certified skill has been downloaded yet.</p>`}
        </section>
      </div>`,
  ).value;
}

export function searchPage(filters: SearchFilters, result: SkillListResponseDto | null, errors: string[]): string {
  const page = filters.page ?? 1;
  const perPage = result?.per_page ?? DEFAULT_PAGE_SIZE;
  const total = result?.total ?? 0;
  const link = (p: number) => `/search${queryString({ ...filters, page: p > 1 ? p : undefined })}`;
  const certified = filters.certified ?? '';
  return layout(
    { title: filters.q ? `Search: ${filters.q}` : 'Search', ownSearch: true },
    html`<h1>Search skills</h1>
      <form method="get" action="/search" class="search" role="search" aria-label="Search and filters">
        <label for="f-q"
          >Text<input id="f-q" type="search" name="q" value="${filters.q ?? ''}" maxlength="200"
        /></label>
        <label for="f-author"
          >Author<input id="f-author" name="author" value="${filters.author ?? ''}" maxlength="39"
        /></label>
        <label for="f-category"
          >Category<input id="f-category" name="category" value="${filters.category ?? ''}" maxlength="64"
        /></label>
        <label for="f-tags"
          >Tags (comma list)<input id="f-tags" name="tags" value="${filters.tags ?? ''}" maxlength="400"
        /></label>
        <label for="f-certified"
          >Certification<select id="f-certified" name="certified">
            <option value="" ${certified === '' ? ' selected' : ''}>Any</option>
            <option value="true" ${certified === 'true' ? ' selected' : ''}>Certified</option>
            <option value="false" ${certified === 'false' ? ' selected' : ''}>Not certified</option>
          </select></label
        >
        <button type="submit">Apply</button>
      </form>
      ${
        errors.length
          ? html`<div role="alert">
              <h2>The search has invalid fields</h2>
              <ul>
                ${errors.map((e) => html`<li>${e}</li>`)}
              </ul>
            </div>`
          : ''
      }
      ${
        result
          ? html`<p role="status">${total} skill${total === 1 ? '' : 's'} found.</p>
              ${skillList(result.items)}
              <nav class="pages" aria-label="Pages">
                ${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Previous page</a>` : ''}
                ${page * perPage < total ? html`<a href="${link(page + 1)}" rel="next">Next page</a>` : ''}
              </nav>`
          : ''
      }`,
  ).value;
}

export function namespacePage(slug: string, result: SkillListResponseDto): string {
  return layout(
    { title: slug },
    html`<h1>${slug}</h1>
      <p>${result.total} skill${result.total === 1 ? '' : 's'} published under this namespace.</p>
      ${skillList(result.items)}
      ${result.total > result.items.length ? html`<p><a href="/search${queryString({ author: slug })}">More skills</a></p>` : ''}`,
  ).value;
}

export function errorPage(title: string, detail: string): string {
  return layout(
    { title },
    html`<h1>${title}</h1>
      <p>${detail}</p>
      <p><a href="/">Back to the home page</a> or search above.</p>`,
  ).value;
}
