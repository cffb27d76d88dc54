/** The entry point: detect a bundle's skill format, then parse and check its manifest. */
import { parseAgentSkill } from './agent-skill.parser';
import { detectFormat } from './detect-format';
import { parseKazmaSkill } from './kazma-manifest.parser';
import type { ParseContext, ParseResult, SkillFile, SkillFormat } from './skill.model';
import { parseSwarmKitSkill } from './swarmkit-skill.parser';

type FormatParser = (files: readonly SkillFile[], manifest: SkillFile, context: ParseContext) => ParseResult;

const PARSERS: Readonly<Record<SkillFormat, FormatParser>> = {
  kazma: (files, manifest) => parseKazmaSkill(files, manifest),
  swarmkit: parseSwarmKitSkill,
  'agent-skill': (_, manifest, context) => parseAgentSkill(manifest, context),
};

/**
 * Parses a bundle's files (paths relative to the skill folder) into the normalized model.
 * Every problem is reported; `skill` is null when any of them is an error.
 */
export function parseSkill(files: readonly SkillFile[], context: ParseContext = {}): ParseResult {
  const detection = detectFormat(files);
  if (!detection.ok) return { skill: null, problems: [detection.problem] };
  return PARSERS[detection.format](files, detection.manifest, context);
}
