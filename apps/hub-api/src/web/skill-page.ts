/**
 * A skill's page: what npm's package page shows (README, links, versions with dates, files,
 * install snippets) and what trust needs on top (lifecycle banners, the report with every
 * finding's file, line and fix, what the code was proven to do, the servers the certificate
 * lets start, the certificate and its log entry). Wide tables stack into cards on a narrow
 * screen (`table.stack` in layout.ts).
 */
import type { StoredReport } from '@skillhub/database';
import type { CertificationStatusDto } from '../certifications/dto/certification-status.response.dto';
import type { SkillResponseDto, SkillVersionResponseDto } from '../skills/dto/skill-version.response.dto';
import type { CertificateResponseDto, LogEntryDto } from '../trust/dto/trust.dto';
import { counted, externalLink, html, queryString, type SafeHtml, seg } from './html';
import { layout } from './layout';
import { renderHint } from './markdown';
import { namespaceHref, serverHref, skillHref, statusPill } from './pages';
import { requirementLabel } from './requirement-labels';
import { timeTag } from './time';

export interface Readme {
  /** The file it was read from, inside the skill folder. */
  path: string;
  html: SafeHtml;
  truncated: boolean;
}

/** What the page shows beyond the API's version: the manifest's links, the README, the revocation. */
export interface VersionExtras {
  homepage: string | null;
  repository: string | null;
  readme: Readme | null;
  revocation: { reason: string; revoked_at: string; log_index: number } | null;
}

export interface SkillPageData {
  skill: SkillResponseDto;
  version: SkillVersionResponseDto;
  certification: CertificationStatusDto;
  certificate: CertificateResponseDto | null;
  logEntry: LogEntryDto | null;
  extras: VersionExtras;
  /** The hub's public origin, for snippets pasted elsewhere (`https://hub.example`). */
  origin: string;
  now: Date;
}

type Finding = StoredReport['findings'][number];
type Capability = StoredReport['capabilities'][number];
type Server = StoredReport['servers'][number];
type Detonation = NonNullable<StoredReport['detonation']>;

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
/** Where the agent runtime serves its gateway by default (examples/runtime.yaml, `gateway.http`). */
const GATEWAY_URL = 'http://127.0.0.1:3333/mcp';
const SECRET_REF = /\$\{([A-Z_][A-Z0-9_]*)\}/g;

/** `^x.y.z` for a release, the exact version for a pre-release. */
const runtimeRange = (version: string) => (/^\d+\.\d+\.\d+$/.test(version) ? `^${version}` : version);

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** Why this version cannot be installed, or null when `skillhub install` and the runtime accept it. */
function notInstallable(d: SkillPageData): string | null {
  const { version: v, certification: c } = d;
  if (c.status === 'revoked') return 'its certification was revoked';
  if (v.status === 'yanked') return 'its publisher yanked it';
  if (c.status === 'pending') return 'the certifier has not judged it yet';
  if (c.status !== 'certified') return `it is not certified (${c.status})`;
  return null;
}

function banners(d: SkillPageData): SafeHtml {
  const { version: v, certification: c, extras } = d;
  const out: SafeHtml[] = [];
  if (c.status === 'revoked') {
    const r = extras.revocation;
    out.push(
      html`<div class="banner bad" id="banner-revoked">
        <p>
          <strong>Revoked.</strong> The hub withdrew this version's
          certification${r ? html` ${timeTag(r.revoked_at, d.now)}` : ''}. Do not use it: the command line and the agent
          runtime refuse to install it.
        </p>
        ${r ? html`<p>Reason: ${r.reason} (<a href="/api/v1/log/entries/${r.log_index}">log entry #${r.log_index}</a>)</p>` : ''}
      </div>`,
    );
  }
  if (v.status === 'yanked') {
    out.push(
      html`<div class="banner bad" id="banner-yanked">
        <p>
          <strong>Yanked</strong> by its publisher: it can no longer be
          installed.${v.status_message ? html` Message: ${v.status_message}` : ''}
        </p>
      </div>`,
    );
  }
  if (v.status === 'deprecated') {
    out.push(
      html`<div class="banner warn" id="banner-deprecated">
        <p>
          <strong>Deprecated</strong> by its publisher.${v.status_message ? html` Message: ${v.status_message}` : ''}
        </p>
      </div>`,
    );
  }
  if (c.status === 'pending') {
    out.push(
      html`<div class="banner warn" id="banner-pending">
        <p>
          <strong>Pending.</strong> The certifier is judging this version; it can be installed once it is certified.
        </p>
      </div>`,
    );
  } else if (c.status === 'failed' || c.status === 'inconclusive' || c.status === 'expired') {
    out.push(
      html`<div class="banner bad" id="banner-${c.status}">
        <p>
          <strong>Not certified (${c.status}).</strong> It cannot be installed; the
          <a href="#certification">report</a> says why.
        </p>
      </div>`,
    );
  }
  return html`${out}`;
}

/** The `${NAME}` secrets the certified servers' environment asks the runtime for. */
function secretsOf(servers: readonly Server[]): string[] {
  const names = servers.flatMap((s) =>
    Object.values(s.env).flatMap((value) => [...value.matchAll(SECRET_REF)].map((m) => m[1]!)),
  );
  return [...new Set(names)].sort();
}

function runtimeConfig(ref: string, version: string, report: StoredReport | null, permissions: string[]): string {
  const network =
    permissions.includes('network_outbound') ||
    (report?.capabilities ?? []).some((c) => c.permission === 'network_outbound');
  const secrets = secretsOf(report?.servers ?? []);
  const lines = ['skills:', `  - ${ref}@${runtimeRange(version)}`];
  if (secrets.length) {
    lines.push('secrets:', ...secrets.map((s) => `  ${s}: { env: ${s} }`));
  }
  if (network || secrets.length) {
    lines.push('grants:', `  ${ref}:`);
    if (network) lines.push('    network: true');
    if (secrets.length) lines.push(`    secrets: [${secrets.join(', ')}]`);
  }
  lines.push('gateway:', '  http: { host: 127.0.0.1, port: 3333 }');
  return lines.join('\n');
}

function installSection(d: SkillPageData, ref: string): SafeHtml {
  const { version: v, certification: c } = d;
  const why = notInstallable(d);
  const badge = `${d.origin}/api/v1/skills/${seg(d.skill.author)}/${seg(d.skill.name)}/badge.svg`;
  const page = `${d.origin}${skillHref(d.skill.author, d.skill.name)}`;
  const mcpClient = JSON.stringify({ mcpServers: { skillhub: { type: 'http', url: GATEWAY_URL } } }, null, 2);
  return html`<section aria-labelledby="install">
    <h2 id="install">Install</h2>
    ${
      why
        ? html`<p class="not-installable">This version cannot be installed: ${why}.</p>`
        : html`<p>With the command line:</p>
            <pre><code>skillhub install ${ref}@${v.version}</code></pre>
            <p>
              In the agent runtime's configuration (<code>runtime.yaml</code>; see <code>examples/runtime.yaml</code>):
            </p>
            <pre><code>${runtimeConfig(ref, v.version, c.report as StoredReport | null, v.permissions)}</code></pre>
            <p>
              Start it with
              <code>RUNTIME_CONFIG=runtime.yaml KAZMA_HUB_URL=${d.origin} npm run start:agent-runtime</code>, then point
              an MCP client at its gateway (<code>mcp.json</code>, <code>claude_desktop_config.json</code>…):
            </p>
            <pre><code>${mcpClient}</code></pre>`
    }
    <p>A badge for your README (Markdown):</p>
    <pre><code>[![Skill Hub: ${ref}](${badge})](${page})</code></pre>
  </section>`;
}

function toolsSection(v: SkillVersionResponseDto, report: StoredReport | null): SafeHtml {
  if (!v.tools.length && !v.mcp_servers.length) return html``;
  const pinned = new Map((report?.servers ?? []).map((s) => [s.name, s]));
  return html`<section aria-labelledby="tools">
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
            ${v.mcp_servers.map((m) => {
              const pkg = pinned.get(m.name)?.package;
              return html`<li>
                MCP server
                <code>${m.name}</code>
                (${m.transport})${m.url ? html`: ${externalLink(m.url)}` : ''}${m.command ? html`: <code>${m.command.join(' ')}</code>` : ''}${pkg ? html` · <a href="${serverHref(pkg.name)}">the ${pkg.name} server's page</a>` : ''}
              </li>`;
            })}
          </ul>`
        : ''
    }
  </section>`;
}

function permissionsSection(v: SkillVersionResponseDto, capabilities: readonly Capability[]): SafeHtml {
  return html`<section aria-labelledby="permissions">
    <h2 id="permissions">Permissions and capabilities</h2>
    <p>
      Declared permissions:
      ${v.permissions.length ? v.permissions.map((p) => html`<code class="pill">${p}</code> `) : html`<em>none</em>`}
    </p>
    ${
      capabilities.length
        ? html`<p>What the certifier proved the code does, with the line that proves it:</p>
            <table class="stack">
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
                      <td data-label="Capability">${c.capability}</td>
                      <td data-label="Permission">
                        <code>${c.permission}</code>
                        ${c.declared ? '(declared)' : html`<strong>(not declared)</strong>`}
                      </td>
                      <td data-label="Proven by">
                        <ul class="plain">
                          ${c.uses.map((u) => html`<li><code>${u.file}:${u.line}</code> <code class="evidence">${u.evidence}</code></li>`)}
                          ${c.more ? html`<li>and ${c.more} more</li>` : ''}
                        </ul>
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>`
        : html`<p>The code was parsed and does nothing that needs a permission.</p>`
    }
  </section>`;
}

/** `findings`: the report's, which say (C15.pinned-by-hub) which servers' releases the hub pinned. */
function serversList(servers: readonly Server[], findings: readonly Finding[]): SafeHtml {
  if (!servers.length) return html`<p>The certificate lets no MCP server start.</p>`;
  const hubPinned = (name: string): boolean =>
    findings.some((f) => f.rule === 'C15.pinned-by-hub' && f.message.startsWith(`MCP server ${JSON.stringify(name)} `));
  return html`<ul>
    ${servers.map((s) => {
      const tools = s.tools ? Object.keys(s.tools).sort() : null;
      const by = hubPinned(s.name) ? 'pinned by the hub at certification:' : 'pinned';
      return html`<li>
        <code>${s.name}</code> (${s.launch}): <code>${s.url ?? s.argv.join(' ')}</code>
        ${s.package ? html`<br />${by} <a href="${serverHref(s.package.name)}">${s.package.name}</a>@${s.package.version} (${s.package.registry}), integrity <code class="digest">${s.package.integrity}</code>` : ''}
        <br />${tools === null ? 'live tools not recorded' : html`${tools.length} live tools pinned${tools.length ? html`: ${tools.map((t, i) => html`${i ? ', ' : ''}<code>${t}</code>`)}` : ''}`}
      </li>`;
    })}
  </ul>`;
}

function findingsBySeverity(findings: readonly Finding[]): SafeHtml {
  if (!findings.length) return html`<p>No findings.</p>`;
  return html`${SEVERITIES.map((severity) => {
    const of = findings.filter((f) => f.severity === severity);
    if (!of.length) return '';
    return html`<section class="findings" data-severity="${severity}" aria-labelledby="sev-${severity}">
      <h4 id="sev-${severity}" class="sev-${severity}">${severity} (${of.length})</h4>
      <table class="stack report">
        <thead>
          <tr>
            <th scope="col" class="rule">Rule and place</th>
            <th scope="col">Finding</th>
            <th scope="col">How to fix</th>
          </tr>
        </thead>
        <tbody>
          ${of.map(
            (f) =>
              html`<tr>
                <td data-label="Rule" class="rule">
                  <code>${f.rule}</code
                  >${f.file ? html`<br /><code class="where">${f.file}${f.line !== null ? `:${f.line}` : ''}</code>` : ''}
                </td>
                <td data-label="Finding">${f.message}</td>
                <td data-label="How to fix">${renderHint(f.fixHint)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </section>`;
  })}`;
}

function certificationSection(d: SkillPageData, report: StoredReport | null): SafeHtml {
  const c = d.certification;
  // What is not met first: it is what a publisher has to fix.
  const met = Object.entries(c.requirements_met).sort(([, a], [, b]) => Number(a) - Number(b));
  return html`<section aria-labelledby="certification">
    <h2 id="certification">Certification ${statusPill(c.status, c.level)}</h2>
    ${
      c.issued_at
        ? html`<p>
            Issued
            ${timeTag(c.issued_at, d.now)}${
              // A revoked certificate holds no longer: its expiry would read as a promise.
              c.status === 'revoked'
                ? html`, revoked${d.extras.revocation ? html` ${timeTag(d.extras.revocation.revoked_at, d.now)}` : ''}`
                : c.expires_at
                  ? html`, expires ${timeTag(c.expires_at, d.now)}`
                  : ''
            }.
          </p>`
        : ''
    }
    ${
      met.length
        ? html`<h3>Requirements</h3>
            <ul class="requirements">
              ${met.map(
                ([k, ok]) =>
                  html`<li class="${ok ? 'met' : 'unmet'}">
                    <span aria-hidden="true">${ok ? '✔' : '✘'}</span> ${requirementLabel(k)}:
                    ${ok ? 'met' : html`<strong>not met</strong>`} <code class="meta">${k}</code>
                  </li>`,
              )}
            </ul>`
        : ''
    }
    ${
      report
        ? html`<h3>Servers that may run</h3>
            ${serversList(report.servers, report.findings)}`
        : ''
    }
    <h3>Report</h3>
    ${report ? findingsBySeverity(report.findings) : html`<p>The certifier has not judged this version yet.</p>`}
  </section>`;
}

/** What kind of thing each detonation event is, in words. */
const EVENT_LABELS: Readonly<Record<Detonation['events'][number]['kind'], string>> = {
  'honeytoken-read': 'read a honeytoken',
  connect: 'tried to connect',
  dns: 'looked up a name',
  'exec-shell': 'started a shell',
  'exec-downloader': 'started a network tool',
  'persistence-write': 'wrote a start-up file',
  'delete-outside': 'deleted outside its scratch folders',
};

/** C16: what ran in the sandbox with honeytokens, what it tried, with the traced call as evidence. */
function detonationSection(report: StoredReport | null): SafeHtml | string {
  if (!report) return '';
  const d = report.detonation;
  return html`<section aria-labelledby="detonation">
    <h2 id="detonation">Detonation</h2>
    ${
      d === null
        ? html`<p>Not detonated: only the static checks judged what this skill runs.</p>`
        : html`<p>
              What the skill would run was run in a sandbox without network, with honeytokens planted where thieves look
              (SSH keys, cloud and GitHub tokens, a <code>.env</code>, tokens in the environment), and its file, process
              and network calls traced.
            </p>
            ${
              d.ran.length
                ? html`<h3>What ran</h3>
                    <table class="stack">
                      <thead>
                        <tr>
                          <th scope="col">Program</th>
                          <th scope="col">Ended</th>
                        </tr>
                      </thead>
                      <tbody>
                        ${d.ran.map(
                          (r) =>
                            html`<tr>
                              <td data-label="Program">
                                <code>${r.what}</code
                                >${r.file ? html`<br /><code class="where">${r.file}${r.line !== null ? `:${r.line}` : ''}</code>` : ''}
                              </td>
                              <td data-label="Ended">
                                ${r.timedOut ? 'stopped at the time limit' : `exit code ${r.exit ?? '?'}`}
                              </td>
                            </tr>`,
                        )}
                      </tbody>
                    </table>`
                : html`<p>Nothing of this skill runs by itself.</p>`
            }
            <h3>What it tried</h3>
            ${
              d.events.length
                ? html`<table class="stack report">
                    <thead>
                      <tr>
                        <th scope="col">What</th>
                        <th scope="col">Program</th>
                        <th scope="col">Traced call</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${d.events.map(
                        (e) =>
                          html`<tr data-event="${e.kind}">
                            <td data-label="What">
                              <strong>${EVENT_LABELS[e.kind] ?? e.kind}</strong>: <code>${e.detail}</code>
                            </td>
                            <td data-label="Program"><code>${e.program}</code></td>
                            <td data-label="Traced call"><code class="digest">${e.evidence}</code></td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>`
                : d.ran.length
                  ? html`<p>
                      Nothing: no honeytoken read, no connection or name lookup, no shell or network tool started, no
                      start-up file written.
                    </p>`
                  : ''
            }
            ${
              d.notRun.length
                ? html`<h3>Not run</h3>
                    <ul>
                      ${d.notRun.map((n) => html`<li><code>${n.what}</code>: ${n.reason}</li>`)}
                    </ul>`
                : ''
            }`
    }
  </section>`;
}

function filesSection(v: SkillVersionResponseDto): SafeHtml {
  return html`<section aria-labelledby="files">
    <h2 id="files">Files</h2>
    <p>
      ${v.files.length} files in a bundle of ${bytes(v.bundle_size)}, SHA-256
      <code class="digest">${v.bundle_sha256}</code> (<a href="${v.download_url}">download the bundle</a>).
    </p>
    <table class="stack files">
      <thead>
        <tr>
          <th scope="col">Path</th>
          <th scope="col">Size</th>
          <th scope="col">SHA-256</th>
        </tr>
      </thead>
      <tbody>
        ${v.files.map(
          (f) =>
            html`<tr>
              <td data-label="Path"><code>${f.path}</code></td>
              <td data-label="Size" class="num">${bytes(f.size)}</td>
              <td data-label="SHA-256"><code class="digest">${f.sha256}</code></td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

function certificateSection(d: SkillPageData): SafeHtml {
  const cert = d.certificate;
  const { skill, version: v } = d;
  return html`<section aria-labelledby="certificate">
    <h2 id="certificate">Certificate and transparency log</h2>
    ${
      cert
        ? html`<dl>
              <dt>Signing key</dt>
              <dd><code class="digest">${cert.key_id}</code></dd>
              <dt>Issued</dt>
              <dd>${timeTag(cert.issued_at, d.now)}</dd>
              ${
                d.certification.status === 'revoked'
                  ? html`<dt>Revoked</dt>
                      <dd>
                        ${d.extras.revocation ? timeTag(d.extras.revocation.revoked_at, d.now) : 'yes'}: this
                        certificate no longer holds, whatever its expiry says
                      </dd>`
                  : html`<dt>Expires</dt>
                      <dd>${timeTag(cert.expires_at, d.now)}</dd>`
              }
              <dt>Log entry</dt>
              <dd>
                <a href="/api/v1/log/entries/${cert.log_index}">#${cert.log_index}</a
                >${d.logEntry ? html` (${d.logEntry.kind}, leaf hash <code class="digest">${d.logEntry.leaf_hash}</code>)` : ''}
              </dd>
              <dt>Checkpoint</dt>
              <dd>
                tree size ${cert.checkpoint.tree_size}, root <code class="digest">${cert.checkpoint.root_hash}</code>
              </dd>
            </dl>
            <p>
              <a href="/api/v1/skills/${seg(skill.author)}/${seg(skill.name)}/versions/${seg(v.version)}/certificate"
                >The signed certificate (JSON)</a
              >
            </p>`
        : html`<p>This version holds no certificate.</p>`
    }
  </section>`;
}

function versionsSection(d: SkillPageData): SafeHtml {
  const { skill, version: v } = d;
  return html`<section aria-labelledby="versions">
    <h2 id="versions">Versions</h2>
    <table class="stack">
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
            html`<tr${x.version === v.version ? html` aria-current="true"` : ''}>
              <td data-label="Version"><a href="${skillHref(skill.author, skill.name, x.version)}">${x.version}</a></td>
              <td data-label="Published">${timeTag(x.published_at, d.now)}</td>
              <td data-label="Status">${x.status}</td>
              <td data-label="Certification">${x.certification.status}${x.certification.status === 'certified' ? ` · ${x.certification.level}` : ''}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

export function skillPage(d: SkillPageData): string {
  const { skill, version: v, certification: c, extras } = d;
  const ref = `${skill.author}/${skill.name}`;
  // The status service decodes the stored report with the codec; the DTO only types it loosely for the API.
  const report = (c.report ?? null) as StoredReport | null;
  const links = [
    extras.repository ? html`<li>Repository: ${externalLink(extras.repository)}</li>` : '',
    extras.homepage ? html`<li>Homepage: ${externalLink(extras.homepage)}</li>` : '',
  ];
  return layout(
    { title: `${ref} ${v.version}` },
    html`<nav aria-label="Breadcrumb"><a href="${namespaceHref(skill.author)}">${skill.author}</a> / ${skill.name}</nav>
      <h1>${ref} <span class="meta">${v.version}</span></h1>
      ${banners(d)}
      <p>
        <img
          src="/api/v1/skills/${seg(skill.author)}/${seg(skill.name)}/badge.svg${queryString({ version: v.version })}"
          alt="Certification: ${c.status}${c.status === 'certified' ? ` ${c.level}` : ''}"
          height="20"
        />
      </p>
      <p class="desc">${v.description}</p>
      <p class="meta">
        ${v.format} · ${v.category ?? 'uncategorized'} · ${v.license ?? 'no license'} ·
        ${counted(v.downloads, 'download')} · published ${timeTag(v.published_at, d.now)} by ${v.author_display}
      </p>
      ${
        extras.repository || extras.homepage
          ? html`<ul class="links">
              ${links}
            </ul>`
          : ''
      }
      ${v.tags.length ? html`<p>Tags: ${v.tags.map((t) => html`<a class="pill" href="/search${queryString({ tags: t })}">${t}</a> `)}</p>` : ''}
      ${installSection(d, ref)}
      ${
        extras.readme
          ? html`<section aria-labelledby="readme">
              <h2 id="readme">Readme <span class="meta">${extras.readme.path}</span></h2>
              <div class="readme">${extras.readme.html}</div>
              ${extras.readme.truncated ? html`<p class="meta">Cut short: the whole file is in the bundle.</p>` : ''}
            </section>`
          : ''
      }
      ${permissionsSection(v, report?.capabilities ?? [])} ${toolsSection(v, report)} ${certificationSection(d, report)}
      ${detonationSection(report)} ${filesSection(v)} ${certificateSection(d)} ${versionsSection(d)}`,
  ).value;
}
