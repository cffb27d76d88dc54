/** Tells which of the three skill formats a bundle holds, from the files at its root. */
import type { Problem } from '@skillhub/errors';
import { MAX_MANIFEST_BYTES } from './safe-yaml';
import type { SkillFile, SkillFormat } from './skill.model';

export const KAZMA_MANIFEST_FILE = 'skill_manifest.yaml';
export const AGENT_SKILL_FILE = 'SKILL.md';

export type FormatDetection = { ok: true; format: SkillFormat; manifest: SkillFile } | { ok: false; problem: Problem };

/** Root files named in a "which files were found" message; the rest are counted. */
const LISTED_FILES_MAX = 20;

/*
 * A SwarmKit skill is recognised by two top-level lines, not by parsing: a manifest whose YAML is
 * broken elsewhere is still recognised, and its parser then reports what is wrong with it.
 */
const SWARMKIT_API_VERSION = /^apiVersion:[ \t]*(["']?)swarmkit\/v1\1[ \t]*(?:#[^\r\n]*)?\r?$/m;
const SWARMKIT_KIND_SKILL = /^kind:[ \t]*(["']?)Skill\1[ \t]*(?:#[^\r\n]*)?\r?$/m;
const SWARMKIT_KIND_WORKSPACE = /^kind:[ \t]*(["']?)Workspace\1[ \t]*(?:#[^\r\n]*)?\r?$/m;

export function detectFormat(files: readonly SkillFile[]): FormatDetection {
  const rootFiles = files.filter((file) => !file.path.includes('/'));
  const candidates = rootFiles.flatMap((file) => {
    const format = formatOf(file);
    return format ? [{ format, manifest: file }] : [];
  });
  const [only, ...others] = candidates;
  if (only && others.length === 0) return { ok: true, ...only };

  const found = candidates.map(({ format, manifest }) => `${manifest.path} (${format})`);
  const message =
    candidates.length === 0
      ? 'No skill manifest at the bundle root: expected skill_manifest.yaml (Kazma), SKILL.md (Agent Skill) ' +
        `or a .yaml/.yml file with "apiVersion: swarmkit/v1" and "kind: Skill" (SwarmKit). Found: ${listFiles(rootFiles)}`
      : `More than one skill manifest at the bundle root: ${found.join(', ')}. A bundle holds exactly one skill`;
  return { ok: false, problem: { path: '.', message, severity: 'error' } };
}

function formatOf(file: SkillFile): SkillFormat | null {
  if (file.path === KAZMA_MANIFEST_FILE) return 'kazma';
  if (file.path === AGENT_SKILL_FILE) return 'agent-skill';
  if (isSwarmKitSkill(file)) return 'swarmkit';
  return null;
}

/** Only the first MAX_MANIFEST_BYTES are looked at; a larger file is then refused by its parser. */
export function isSwarmKitSkill(file: SkillFile): boolean {
  return isSwarmKitKind(file, SWARMKIT_KIND_SKILL);
}

/** A SwarmKit workspace file (`kind: Workspace`), recognised the same way. */
export function isSwarmKitWorkspace(file: SkillFile): boolean {
  return isSwarmKitKind(file, SWARMKIT_KIND_WORKSPACE);
}

function isSwarmKitKind(file: SkillFile, kind: RegExp): boolean {
  if (!/\.ya?ml$/.test(file.path)) return false;
  const head = file.content.subarray(0, MAX_MANIFEST_BYTES + 1).toString('utf8');
  return SWARMKIT_API_VERSION.test(head) && kind.test(head);
}

function listFiles(files: readonly SkillFile[]): string {
  if (files.length === 0) return 'no files';
  const names = files.map((file) => file.path).sort();
  const rest = names.length - LISTED_FILES_MAX;
  return names.slice(0, LISTED_FILES_MAX).join(', ') + (rest > 0 ? ` and ${rest} more` : '');
}
