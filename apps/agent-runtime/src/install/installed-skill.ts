/**
 * What an installed skill contributes to the gateway. Kazma code skills are installed
 * for a Kazma host to load (this runtime never runs their Python), but the MCP servers
 * any skill declares are started like configured ones; an Agent Skill is offered as a
 * prompt (its SKILL.md body: instructions, never code).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type McpServerConfig, mcpServerConfigSchema } from '../mcp/mcp-server.config';
import type { SkillPrompt } from '../gateway/gateway';
import type { InstallResult } from '@skillhub/installer';

type Installed = Extract<InstallResult, { ok: true }>;

export function skillServers(installed: Installed): McpServerConfig[] {
  return installed.skill.mcpServers.map((server) =>
    mcpServerConfigSchema.parse({
      name: server.name,
      transport: server.transport,
      ...(server.command ? { command: server.command } : {}),
      ...(server.url ? { url: server.url } : {}),
    }),
  );
}

export function skillPrompt(installed: Installed): SkillPrompt[] {
  if (installed.skill.format !== 'agent-skill') return [];
  const markdown = readFileSync(join(installed.path, installed.skill.manifestPath), 'utf8');
  const body = markdown.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '');
  return [{ name: `${installed.author}/${installed.name}`, description: installed.skill.description, text: body }];
}
