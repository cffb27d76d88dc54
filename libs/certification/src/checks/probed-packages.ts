/** The packages a skill's MCP servers run, each beside its probe result and where the manifest names it (C8, C9). */
import type { PackageRef, NormalizedSkill } from '@skillhub/skill-formats';
import { SWARMKIT_WORKSPACE_FILE } from '@skillhub/skill-formats';
import type { CertificationInput, ProbeResult } from '../certification-input';
import { lineOfFirstMatch } from '../scanned-text';

export interface ProbedPackage {
  ref: PackageRef;
  probe: ProbeResult;
  file: string;
  line: number | null;
}

/**
 * Pairs `input.probes` with the skill's packages by position. Results that do not line up are
 * the worker's mistake, and trusting them could certify a package nobody probed: it throws,
 * which fails the check.
 */
export function probedPackages(input: CertificationInput, skill: NormalizedSkill): ProbedPackage[] {
  const refs = skill.mcpServers.flatMap((server) => server.packages);
  if (refs.length !== input.probes.length) {
    throw new Error(`the skill names ${refs.length} packages but ${input.probes.length} probe results were given`);
  }
  // SwarmKit skills name their server's command in the workspace file, not in the skill.
  const file = skill.format === 'swarmkit' ? SWARMKIT_WORKSPACE_FILE : skill.manifestPath;
  return refs.map((ref, index) => {
    const probe = input.probes[index] as ProbeResult;
    if (probe.registry !== ref.registry || probe.name !== ref.name) {
      throw new Error(
        `probe result ${index} is about ${probe.registry}:${probe.name}, not ${ref.registry}:${ref.name}`,
      );
    }
    return { ref, probe, file, line: lineOfFirstMatch(input.bundle, file, namePattern(ref)) };
  });
}

/** PyPI names are compared after PEP 503 normalization, so `mcp_server_x` is written where `mcp-server-x` is probed. */
function namePattern(ref: PackageRef): RegExp {
  const escaped = ref.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return ref.registry === 'pypi' ? new RegExp(escaped.replace(/-/g, '[-_.]+'), 'i') : new RegExp(escaped);
}

export const packageLabel = (probe: ProbeResult): string =>
  `${probe.registry} package ${probe.name}${probe.version === null ? '' : `@${probe.version}`}`;
