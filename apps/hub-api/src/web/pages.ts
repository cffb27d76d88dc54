/** The web pages as plain template functions over what the services return. */
import type { CertificationStatusDto } from '../certifications/dto/certification-status.response.dto';
import type { SkillListItemDto, SkillListResponseDto } from '../search/dto/skill-list.response.dto';
import type { SkillResponseDto, SkillVersionResponseDto } from '../skills/dto/skill-version.response.dto';
import type { CertificateResponseDto, LogEntryDto } from '../trust/dto/trust.dto';
import { externalLink, html, queryString, type SafeHtml, seg } from './html';
import { layout } from './layout';

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

export interface SkillPageData {
  skill: SkillResponseDto;
  version: SkillVersionResponseDto;
  certification: CertificationStatusDto;
  certificate: CertificateResponseDto | null;
  logEntry: LogEntryDto | null;
}

export interface ReportFinding {
  rule: string;
  check: string;
  severity: string;
  file: string | null;
  line: number | null;
  message: string;
  fixHint: string;
}

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;

const skillHref = (author: string, name: string, version?: string) =>
  `/skills/${seg(author)}/${seg(name)}${version ? queryString({ version }) : ''}`;
const namespaceHref = (slug: string) => `/namespaces/${seg(slug)}`;

function certPill(certified: boolean, level: string): SafeHtml {
  return certified
    ? html`<span class="pill ok">certified · ${level}</span>`
    : html`<span class="pill">not certified</span>`;
}

function statusPill(status: string, level: string): SafeHtml {
  const cls = status === 'certified' ? 'ok' : status === 'failed' || status === 'revoked' ? 'bad' : '';
  return html`<span class="pill ${cls}">${status}${status === 'certified' ? ` · ${level}` : ''}</span>`;
}

function skillItem(s: SkillListItemDto): SafeHtml {
  return html`<li>
    <h3><a href="${skillHref(s.author, s.name)}">${s.author}/${s.name}</a> <span class="meta">${s.version}</span></h3>
    <p>${s.description}</p>
    <p class="meta">
      ${certPill(s.certified, s.certification_level)} ${s.category ?? ''} · ${s.downloads} downloads · by
      <a href="${namespaceHref(s.author)}">${s.author}</a>
    </p>
  </li>`;
}

function skillList(items: SkillListItemDto[]): SafeHtml {
  return items.length
    ? html`<ul class="skills">
        ${items.map(skillItem)}
      </ul>`
    : html`<p>No skills found.</p>`;
}

export function homePage(recent: RecentlyCertified[], totals: { total: number; certified: number }): string {
  return layout(
    { title: 'Home' },
    html`<h1>Skill Hub</h1>
      <p>
        ${totals.total} skills, ${totals.certified} of them certified. Every certification is explained, signed and
        logged.
      </p>
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
                        ${r.issued_at ? html`on <time datetime="${r.issued_at}">${r.issued_at.slice(0, 10)}</time>` : ''}
                      </p>
                    </li>`,
                )}
              </ul>`
            : html`<p>No skill is certified yet.</p>`
        }
        <p><a href="/search?certified=true">All certified skills</a> · <a href="/search">Browse every skill</a></p>
      </section>`,
  ).value;
}

export function searchPage(filters: SearchFilters, result: SkillListResponseDto | null, errors: string[]): string {
  const page = filters.page ?? 1;
  const perPage = result?.per_page ?? 20;
  const total = result?.total ?? 0;
  const link = (p: number) => `/search${queryString({ ...filters, page: p > 1 ? p : undefined })}`;
  const certified = filters.certified ?? '';
  return layout(
    { title: filters.q ? `Search: ${filters.q}` : 'Search', q: filters.q },
    html`<h1>Search skills</h1>
      <form method="get" action="/search" class="search" aria-label="Filters">
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

/** The report's findings, read defensively: it is stored JSON. */
export function reportFindings(report: unknown): ReportFinding[] {
  const findings = (report as { findings?: unknown } | null)?.findings;
  if (!Array.isArray(findings)) return [];
  return findings
    .filter((f): f is Record<string, unknown> => typeof f === 'object' && f !== null)
    .map((f) => ({
      rule: String(f.rule ?? ''),
      check: String(f.check ?? ''),
      severity: String(f.severity ?? 'info'),
      file: typeof f.file === 'string' ? f.file : null,
      line: typeof f.line === 'number' ? f.line : null,
      message: String(f.message ?? ''),
      fixHint: String(f.fixHint ?? ''),
    }));
}

interface PageCapability {
  capability: string;
  permission: string;
  declared: boolean;
  uses: { file: string; line: number; evidence: string }[];
  more: number;
}

/** What the code was proven to do (C11), read defensively from the stored report. */
export function reportCapabilities(report: unknown): PageCapability[] {
  const capabilities = (report as { capabilities?: unknown } | null)?.capabilities;
  if (!Array.isArray(capabilities)) return [];
  return capabilities
    .filter((c): c is Record<string, unknown> => typeof c === 'object' && c !== null)
    .map((c) => ({
      capability: String(c.capability ?? ''),
      permission: String(c.permission ?? ''),
      declared: c.declared === true,
      uses: (Array.isArray(c.uses) ? c.uses : [])
        .filter((u): u is Record<string, unknown> => typeof u === 'object' && u !== null)
        .map((u) => ({ file: String(u.file ?? ''), line: Number(u.line ?? 0), evidence: String(u.evidence ?? '') })),
      more: typeof c.more === 'number' ? c.more : 0,
    }));
}

interface PageServer {
  name: string;
  launch: string;
  argv: string[];
  url: string | null;
  pkg: string | null;
  tools: number | null;
}

/** The MCP servers the certificate lets the runtime start (C15, C13). */
export function reportServers(report: unknown): PageServer[] {
  const servers = (report as { servers?: unknown } | null)?.servers;
  if (!Array.isArray(servers)) return [];
  return servers
    .filter((s): s is Record<string, unknown> => typeof s === 'object' && s !== null)
    .map((s) => {
      const pkg = typeof s.package === 'object' && s.package !== null ? (s.package as Record<string, unknown>) : null;
      const tools = typeof s.tools === 'object' && s.tools !== null ? Object.keys(s.tools).length : null;
      return {
        name: String(s.name ?? ''),
        launch: String(s.launch ?? ''),
        argv: Array.isArray(s.argv) ? s.argv.map(String) : [],
        url: typeof s.url === 'string' ? s.url : null,
        pkg: pkg ? `${String(pkg.name)}@${String(pkg.version)} (${String(pkg.integrity).slice(0, 24)}…)` : null,
        tools,
      };
    });
}

function capabilitiesSection(capabilities: PageCapability[]): SafeHtml {
  if (!capabilities.length) return html`<p>The code was parsed and does nothing that needs a permission.</p>`;
  return html`<table>
    <thead>
      <tr>
        <th scope="col">Capability</th>
        <th scope="col">Permission</th>
        <th scope="col">Proven by</th>
      </tr>
    </thead>
    <tbody>
      ${capabilities.map(
        (c) =>
          html`<tr>
            <td>${c.capability}</td>
            <td><code>${c.permission}</code> ${c.declared ? '(declared)' : html`<strong>(not declared)</strong>`}</td>
            <td>
              <ul>
                ${c.uses.map((u) => html`<li><code>${u.file}:${u.line}</code> <code>${u.evidence}</code></li>`)}
                ${c.more ? html`<li>and ${c.more} more</li>` : ''}
              </ul>
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function serversSection(servers: PageServer[]): SafeHtml {
  if (!servers.length) return html`<p>The certificate lets no MCP server start.</p>`;
  return html`<ul>
    ${servers.map(
      (s) =>
        html`<li>
          <code>${s.name}</code> (${s.launch}):
          ${s.url ? html`<code>${s.url}</code>` : html`<code>${s.argv.join(' ')}</code>`}
          ${s.pkg ? html` — pinned <code>${s.pkg}</code>` : ''}
          ${s.tools === null ? ' — live tools not recorded' : ` — ${s.tools} live tools pinned`}
        </li>`,
    )}
  </ul>`;
}

function findingsBySeverity(findings: ReportFinding[]): SafeHtml {
  if (!findings.length) return html`<p>No findings.</p>`;
  const known: readonly string[] = SEVERITIES;
  const groups = [...SEVERITIES, ...new Set(findings.map((f) => f.severity).filter((s) => !known.includes(s)))];
  return html`${groups.map((severity) => {
    const of = findings.filter((f) => f.severity === severity);
    if (!of.length) return '';
    return html`<section class="findings" data-severity="${severity}" aria-labelledby="sev-${severity}">
      <h4 id="sev-${severity}" class="sev-${severity}">${severity} (${of.length})</h4>
      <table>
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">File</th>
            <th scope="col">Line</th>
            <th scope="col">Finding</th>
            <th scope="col">How to fix</th>
          </tr>
        </thead>
        <tbody>
          ${of.map(
            (f) =>
              html`<tr>
                <td><code>${f.rule}</code></td>
                <td>${f.file ? html`<code>${f.file}</code>` : '—'}</td>
                <td>${f.line ?? '—'}</td>
                <td>${f.message}</td>
                <td>${f.fixHint}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </section>`;
  })}`;
}

/** `^x.y.z` for a release, the exact version for a pre-release. */
const runtimeRange = (version: string) => (/^\d+\.\d+\.\d+$/.test(version) ? `^${version}` : version);

export function skillPage(d: SkillPageData): string {
  const { skill, version: v, certification: c } = d;
  const ref = `${skill.author}/${skill.name}`;
  const findings = reportFindings(c.report);
  const met = Object.entries(c.requirements_met);
  return layout(
    { title: `${ref} ${v.version}` },
    html`<nav aria-label="Breadcrumb"><a href="${namespaceHref(skill.author)}">${skill.author}</a> / ${skill.name}</nav>
      <h1>${ref} <span class="meta">${v.version}</span></h1>
      <p>
        <img
          src="/api/v1/skills/${seg(skill.author)}/${seg(skill.name)}/badge.svg${queryString({ version: v.version })}"
          alt="Certification: ${c.status}${c.status === 'certified' ? ` ${c.level}` : ''}"
          height="20"
        />
      </p>
      <p class="desc">${v.description}</p>
      <p class="meta">
        ${v.format} · ${v.category ?? 'uncategorized'} · ${v.license ?? 'no license'} · ${v.downloads} downloads · by
        ${v.author_display}${v.status !== 'active' ? html` · <strong>${v.status}</strong>${v.status_message ? `: ${v.status_message}` : ''}` : ''}
      </p>
      ${v.tags.length ? html`<p>Tags: ${v.tags.map((t) => html`<a class="pill" href="/search${queryString({ tags: t })}">${t}</a> `)}</p>` : ''}

      <section aria-labelledby="install">
        <h2 id="install">Install</h2>
        <p>With the command line:</p>
        <pre><code>skillhub install ${ref}@${v.version}</code></pre>
        <p>Or in the agent runtime's configuration (<code>runtime.yaml</code>):</p>
        <pre><code>skills:
  - ${ref}@${runtimeRange(v.version)}</code></pre>
        <p><a href="${v.download_url}">Download the bundle</a> (SHA-256 <code>${v.bundle_sha256}</code>)</p>
      </section>

      ${
        v.tools.length || v.mcp_servers.length
          ? html`<section aria-labelledby="tools">
              <h2 id="tools">Tools and servers</h2>
              ${
                v.tools.length
                  ? html`<ul>
                      ${v.tools.map((t) => html`<li><code>${t.name}</code>: ${t.description}</li>`)}
                    </ul>`
                  : ''
              }
              ${
                v.mcp_servers.length
                  ? html`<ul>
                      ${v.mcp_servers.map(
                        (m) =>
                          html`<li>
                            MCP server
                            <code>${m.name}</code>
                            (${m.transport})${m.url ? html`: ${externalLink(m.url)}` : ''}${m.command ? html`: <code>${m.command.join(' ')}</code>` : ''}
                          </li>`,
                      )}
                    </ul>`
                  : ''
              }
            </section>`
          : ''
      }

      <section aria-labelledby="certification">
        <h2 id="certification">Certification ${statusPill(c.status, c.level)}</h2>
        ${c.issued_at ? html`<p>Issued <time datetime="${c.issued_at}">${c.issued_at}</time>${c.expires_at ? html`, expires <time datetime="${c.expires_at}">${c.expires_at}</time>` : ''}.</p>` : ''}
        ${
          met.length
            ? html`<h3>Requirements</h3>
                <ul>
                  ${met.map(([k, ok]) => html`<li>${ok ? '✔ met' : '✘ not met'}: <code>${k}</code></li>`)}
                </ul>`
            : ''
        }
        ${
          c.report
            ? html`<h3>What the code does</h3>
                ${capabilitiesSection(reportCapabilities(c.report))}
                <h3>Servers that may run</h3>
                ${serversSection(reportServers(c.report))}`
            : ''
        }
        <h3>Report</h3>
        ${c.report ? findingsBySeverity(findings) : html`<p>The certifier has not judged this version yet.</p>`}
      </section>

      <section aria-labelledby="certificate">
        <h2 id="certificate">Certificate and transparency log</h2>
        ${
          d.certificate
            ? html`<dl>
                  <dt>Signing key</dt>
                  <dd><code>${d.certificate.key_id}</code></dd>
                  <dt>Issued</dt>
                  <dd>${d.certificate.issued_at}</dd>
                  <dt>Expires</dt>
                  <dd>${d.certificate.expires_at}</dd>
                  <dt>Log entry</dt>
                  <dd>
                    <a href="/api/v1/log/entries/${d.certificate.log_index}">#${d.certificate.log_index}</a
                    >${d.logEntry ? html` (${d.logEntry.kind}, leaf hash <code>${d.logEntry.leaf_hash}</code>)` : ''}
                  </dd>
                  <dt>Checkpoint</dt>
                  <dd>
                    tree size ${d.certificate.checkpoint.tree_size}, root
                    <code>${d.certificate.checkpoint.root_hash}</code>
                  </dd>
                </dl>
                <p>
                  <a
                    href="/api/v1/skills/${seg(skill.author)}/${seg(skill.name)}/versions/${seg(v.version)}/certificate"
                    >The signed certificate (JSON)</a
                  >
                </p>`
            : html`<p>This version holds no certificate.</p>`
        }
      </section>

      <section aria-labelledby="versions">
        <h2 id="versions">Versions</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Published</th>
              <th scope="col">Status</th>
              <th scope="col">Certification</th>
            </tr>
          </thead>
          <tbody>
            ${skill.versions.map(
              (x) =>
                html`<tr${x.version === v.version ? html` aria-current="true"` : ''}><td><a href="${skillHref(skill.author, skill.name, x.version)}">${x.version}</a></td><td>${x.published_at.slice(0, 10)}</td><td>${x.status}</td><td>${x.certification.status}${x.certification.status === 'certified' ? ` · ${x.certification.level}` : ''}</td></tr>`,
            )}
          </tbody>
        </table>
      </section>`,
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
