/**
 * C15 launch: each MCP server's declaration read as a launch spec (see launch-spec.ts). A refused
 * spec fails; an unpinned package, or a server the skill calls but does not define, cannot be
 * verified and keeps the skill from standard. The accepted specs are evidence: the certificate
 * records exactly what may be started.
 */
import type { NormalizedSkill } from '@skillhub/skill-formats';
import { isSkip, parsedSkill, type Check, type CheckInput } from '../check';
import { newFinding, type Finding, type Severity } from '../finding';
import type { LaunchProblemCode, ServerLaunch } from '../launch-spec';
import { lineOfFirstMatch } from '../scanned-text';
import { escapeRegExp, serverLocation } from './server-location';

/** How bad each problem is: the ways an attacker swaps what runs are critical, the rest fail as high. */
const SEVERITY: Readonly<Record<LaunchProblemCode, Severity>> = {
  'shell-launcher': 'critical',
  'inline-code': 'critical',
  'remote-spec': 'critical',
  'registry-override': 'critical',
  'dangerous-env': 'critical',
  'variable-command': 'critical',
  'unsupported-launcher': 'high',
  'unsafe-url': 'high',
  'missing-file': 'high',
  'outside-bundle': 'critical',
  'operator-provided': 'medium',
  unpinned: 'medium',
};

export const launchCheck: Check = {
  id: 'C15',
  decides: ['launch_specs_pinned'],
  appliesToManifestOnly: true,
  run(input) {
    const skill = parsedSkill(input);
    if (isSkip(skill)) return skill;
    const findings: Finding[] = [];
    const notes: Finding[] = [];
    const launches: ServerLaunch[] = input.launches.map(({ server, ...verdict }) => {
      const at = serverLocation(input.bundle, server);
      for (const problem of verdict.problems) {
        findings.push(
          newFinding({
            check: 'C15',
            code: problem.code,
            severity: SEVERITY[problem.code],
            ...at,
            message: `MCP server ${JSON.stringify(server.name)} ${problem.message}.`,
            fixHint: problem.fixHint,
          }),
        );
      }
      if (verdict.note)
        notes.push(
          newFinding({
            check: 'C15',
            code: verdict.note.code,
            severity: 'info',
            ...at,
            message: `MCP server ${JSON.stringify(server.name)} ${verdict.note.message}.`,
            fixHint: verdict.note.fixHint,
          }),
        );
      return { server, spec: verdict.spec, pinned: verdict.pinned };
    });
    findings.push(...undefinedServers(input, skill), ...undefinedCommand(input, skill));
    const pinned = findings.length === 0 && launches.every(({ spec }) => spec !== null && spec.kind !== 'remote');
    return { findings: [...findings, ...notes], requirements: { launch_specs_pinned: pinned }, evidence: { launches } };
  },
};

/** A SwarmKit mcp_tool skill whose server is defined nowhere in the bundle: what it runs is unknown. */
function undefinedServers(input: CheckInput, skill: NormalizedSkill): Finding[] {
  return skill.serverUses
    .filter((use) => !use.defined)
    .map((use) =>
      newFinding({
        check: 'C15',
        code: 'undefined-server',
        severity: 'medium',
        file: skill.manifestPath,
        line: lineOfFirstMatch(
          input.bundle,
          skill.manifestPath,
          new RegExp(`server:\\s*['"]?${escapeRegExp(use.server)}`),
        ),
        message: `The skill calls tool ${JSON.stringify(use.tool)} of MCP server ${JSON.stringify(use.server)}, which the bundle does not define, so what would run cannot be verified.`,
        fixHint: `Ship a workspace.yaml that defines ${JSON.stringify(use.server)} with a pinned package (\`npx -y <package>@1.2.3\`).`,
      }),
    );
}

/** A SwarmKit command skill whose command no workspace of the bundle defines: what it runs is unknown. */
function undefinedCommand(input: CheckInput, skill: NormalizedSkill): Finding[] {
  const implementation = skill.manifest['implementation'] as Record<string, unknown> | undefined;
  if (skill.format !== 'swarmkit' || implementation?.['type'] !== 'command') return [];
  const pack = String(implementation['pack'] ?? '');
  const command = String(implementation['command'] ?? '');
  if (skill.commands.some((c) => c.pack === pack && c.name === command)) return [];
  return [
    newFinding({
      check: 'C15',
      code: 'undefined-command',
      severity: 'medium',
      file: skill.manifestPath,
      line: lineOfFirstMatch(input.bundle, skill.manifestPath, /command:/),
      message: `The skill runs command ${JSON.stringify(command)} of pack ${JSON.stringify(pack)}, which no workspace of the bundle defines, so what would run cannot be verified.`,
      fixHint: `Ship the workspace.yaml whose command_packs define ${JSON.stringify(pack)} with the command's argv.`,
    }),
  ];
}
