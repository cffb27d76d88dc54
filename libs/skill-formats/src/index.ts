export * from './skill.model';
export { parseSkill } from './parse-skill';
export { detectFormat, AGENT_SKILL_FILE, KAZMA_MANIFEST_FILE, type FormatDetection } from './detect-format';
export { parseKazmaManifestObject } from './kazma-manifest.parser';
export { splitFrontMatter, type SkillDocument } from './agent-skill.parser';
export { SWARMKIT_WORKSPACE_FILE } from './swarmkit-skill.parser';
export { workspaceSkills, WORKSPACE_SKILLS_FOLDER, type WorkspaceSkill, type WorkspaceSplit } from './workspace-bundle';
export { HUB_PERMISSIONS, KAZMA_PERMISSIONS, KNOWN_PERMISSIONS } from './permissions';
export { extractPackageRefs, normalizePypiName, splitCommandLine } from './package-ref.extractor';
export { slugify, NAMESPACE_SLUG_PATTERN } from './slugify';
export { scanText, type TextFinding } from './text-hygiene';
export { MAX_MANIFEST_BYTES, MAX_YAML_ALIASES } from './safe-yaml';
export { formatFieldPath, type FieldPath } from './manifest-source';
export {
  findUnstorableText,
  unstorableReason,
  MAX_DECLARED_TOOLS,
  MAX_MANIFEST_DEPTH,
  MAX_MANIFEST_NODES,
  MAX_MCP_SERVERS,
  type UnstorableText,
} from './manifest-limits';
