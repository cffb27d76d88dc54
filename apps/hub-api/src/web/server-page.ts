/**
 * An MCP server's page, by the package it runs (npm or PyPI): every certified skill version
 * that lets it start, with the version and integrity its certificate pins and the live tools
 * recorded in the sandbox (C13). The same server may be pinned at several versions.
 */
import type { CertifiedServer } from '@skillhub/signing';
import { html } from './html';
import { layout } from './layout';
import { skillHref } from './pages';
import { timeTag } from './time';

export interface ServerUsage {
  author: string;
  name: string;
  version: string;
  level: string;
  issuedAt: string | null;
  servers: CertifiedServer[];
}

export function serverPage(packageName: string, usage: readonly ServerUsage[], now: Date): string {
  const pins = new Map<string, { registry: string; version: string; integrity: string; tools: Set<string> }>();
  for (const u of usage) {
    for (const s of u.servers) {
      if (!s.package) continue;
      const key = `${s.package.registry}:${s.package.version}:${s.package.integrity}`;
      const pin = pins.get(key) ?? { ...s.package, tools: new Set<string>() };
      for (const tool of Object.keys(s.tools ?? {})) pin.tools.add(tool);
      pins.set(key, pin);
    }
  }
  return layout(
    { title: `MCP server ${packageName}` },
    html`<h1>MCP server <code>${packageName}</code></h1>
      <p>
        ${usage.length} certified skill version${usage.length === 1 ? ' lets' : 's let'} this server start, each at the
        exact version and integrity its certificate pins; the agent runtime starts nothing else.
      </p>
      <section aria-labelledby="pins">
        <h2 id="pins">Pinned versions and live tools</h2>
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Integrity</th>
              <th scope="col">Live tools recorded</th>
            </tr>
          </thead>
          <tbody>
            ${[...pins.values()].map(
              (p) =>
                html`<tr>
                  <td data-label="Version">${p.version} <span class="meta">(${p.registry})</span></td>
                  <td data-label="Integrity"><code class="digest">${p.integrity}</code></td>
                  <td data-label="Live tools">
                    ${p.tools.size ? [...p.tools].sort().map((t, i) => html`${i ? ', ' : ''}<code>${t}</code>`) : 'none recorded'}
                  </td>
                </tr>`,
            )}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="users">
        <h2 id="users">Certified skills that use it</h2>
        <ul class="skills">
          ${usage.map(
            (u) =>
              html`<li>
                <h3>
                  <a href="${skillHref(u.author, u.name, u.version)}">${u.author}/${u.name}</a>
                  <span class="meta">${u.version}</span>
                </h3>
                <p class="meta">
                  <span class="pill ok">certified · ${u.level}</span>
                  ${u.issuedAt ? timeTag(u.issuedAt, now) : ''} · runs it as
                  ${u.servers.map((s, i) => html`${i ? ', ' : ''}<code>${s.name}</code> (${s.package?.name}@${s.package?.version})`)}
                </p>
              </li>`,
          )}
        </ul>
      </section>`,
  ).value;
}
