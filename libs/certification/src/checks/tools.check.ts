/**
 * C13 tools: the hash of each tool definition, pinned in the certificate and compared at run time.
 * Declared (native) tools are hashed from the manifest; each MCP server's tools are hashed from
 * what the server itself listed when the worker started it in the sandbox. A server whose tools
 * could not be listed leaves the skill unverified (never standard), with the reason.
 */
import { toolDefinitionHash } from '@skillhub/gate';
import type { McpServerRef, NormalizedSkill } from '@skillhub/skill-formats';
import { isSkip, parsedSkill, type Check, type CheckInput } from '../check';
import { newFinding, type Finding } from '../finding';
import type { ServerLock } from '@skillhub/signing';
import type { LaunchSpec } from '../launch-spec';
import type { LiveServerProbe } from '../live-server';
import { lineOfFirstMatch } from '../scanned-text';
import { serverLocation, type ServerLocation } from './server-location';

/** Why a server that was never listed has no tool pins, by how it is launched. */
const NOT_LISTED: Readonly<Record<LaunchSpec['kind'], string>> = {
  npm: 'the worker did not start it',
  'bundle-file': 'the worker did not start it',
  pypi: 'the worker did not install and start it',
  remote: 'the worker did not list the remote server',
};

export const toolsCheck: Check = {
  id: 'C13',
  decides: ['live_tools_recorded'],
  appliesToManifestOnly: true,
  run(input) {
    const skill = parsedSkill(input);
    if (isSkip(skill)) return skill;
    const findings: Finding[] = [];
    const liveTools: Record<string, Record<string, string>> = {};
    const serverLocks: Record<string, ServerLock> = {};
    let recorded = true;
    for (const { server, spec } of input.launches) {
      if (spec === null) {
        recorded = false; // refused by C15, which says why
        continue;
      }
      const probe = input.liveServers.find((candidate) => candidate.server === server.name);
      const at = serverLocation(input.bundle, server);
      if (probe?.outcome !== 'listed') {
        recorded = false;
        const why = probe ? probe.detail : NOT_LISTED[spec.kind];
        findings.push(notRecorded(server, why, at));
        continue;
      }
      const hashes = hashTools(server, probe, at, findings);
      if (hashes) liveTools[server.name] = hashes;
      else recorded = false;
      if (probe.lock) serverLocks[server.name] = probe.lock;
      if (probe.unlisted?.length) findings.push(notListed(server, probe, at));
    }
    findings.push(...missingTools(input, skill, liveTools));
    return {
      findings,
      requirements: { live_tools_recorded: recorded && !findings.some((finding) => finding.severity !== 'info') },
      evidence: { toolHashes: declaredToolHashes(skill), liveTools, serverLocks },
    };
  },
};

/** Native tools declared in the manifest: name and description are all a format declares of them. */
function declaredToolHashes(skill: NormalizedSkill): Record<string, string> {
  const hashes = new Map<string, string>();
  for (const tool of skill.tools) {
    // Two definitions under one name would leave the runtime unable to tell which one is pinned.
    if (hashes.has(tool.name)) throw new Error(`tool ${JSON.stringify(tool.name)} is declared twice`);
    hashes.set(tool.name, toolDefinitionHash({ name: tool.name, description: tool.description }));
  }
  // fromEntries defines own properties, so a tool named `__proto__` is a key like any other.
  return Object.fromEntries(hashes);
}

/** Live tool name → hash; null (with a finding) when the server listed one name twice. */
function hashTools(
  server: McpServerRef,
  probe: LiveServerProbe,
  at: ServerLocation,
  findings: Finding[],
): Record<string, string> | null {
  const hashes = new Map<string, string>();
  for (const tool of probe.tools) {
    if (hashes.has(tool.name)) {
      findings.push(
        newFinding({
          check: 'C13',
          code: 'duplicate-tool',
          severity: 'high',
          ...at,
          message: `MCP server ${JSON.stringify(server.name)} lists tool ${JSON.stringify(tool.name)} twice, so no single definition can be pinned.`,
          fixHint: 'Give every tool of the server its own name.',
        }),
      );
      return null;
    }
    hashes.set(tool.name, toolDefinitionHash(tool));
  }
  return Object.fromEntries(hashes);
}

function notRecorded(server: McpServerRef, why: string, at: ServerLocation): Finding {
  return newFinding({
    check: 'C13',
    code: 'tools-not-recorded',
    severity: 'medium',
    ...at,
    message: `The live tools of MCP server ${JSON.stringify(server.name)} were not recorded: ${why}.`,
    fixHint:
      'Run a package from npm or PyPI pinned to an exact version that lists its tools without network or secrets, so the hub can pin them.',
  });
}

/**
 * A server that lists its tools but not its prompts or resources (one that needs its database for
 * them, or one that hides them from the certifier): what it did not list was neither scanned (C12)
 * nor pinned, so it cannot be called verified.
 */
function notListed(server: McpServerRef, probe: LiveServerProbe, at: ServerLocation): Finding {
  return newFinding({
    check: 'C13',
    code: 'definitions-not-listed',
    severity: 'medium',
    ...at,
    message: `MCP server ${JSON.stringify(server.name)} did not list its ${(probe.unlisted ?? []).join(' and ')} at certification (${probe.detail}): they were neither scanned nor pinned, and the runtime serves them as untrusted.`,
    fixHint: 'Let the server list its prompts and resources without network or secrets, so the hub can read them.',
  });
}

/** An mcp_tool skill calls one tool: the server it names must have it. */
function missingTools(
  input: CheckInput,
  skill: NormalizedSkill,
  liveTools: Readonly<Record<string, Record<string, string>>>,
): Finding[] {
  return skill.serverUses.flatMap((use) => {
    const tools = liveTools[use.server];
    if (!tools || Object.hasOwn(tools, use.tool)) return [];
    return [
      newFinding({
        check: 'C13',
        code: 'tool-missing',
        severity: 'high',
        file: skill.manifestPath,
        line: lineOfFirstMatch(input.bundle, skill.manifestPath, /tool:/),
        message: `The skill calls tool ${JSON.stringify(use.tool)}, but MCP server ${JSON.stringify(use.server)} does not list it (it lists ${Object.keys(tools).slice(0, 10).join(', ') || 'no tools'}).`,
        fixHint: 'Name a tool the server lists, or run the server version that has it.',
      }),
    ];
  });
}
