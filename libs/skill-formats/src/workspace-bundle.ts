/**
 * SwarmKit's own layout: a workspace (`workspace.yaml`, `kind: Workspace`, at the bundle root) whose
 * skills sit under `skills/`, at any depth. Such a bundle publishes every skill in it, each as its
 * own bundle: the skill's file at the root, where the hub reads one skill, beside the shared
 * workspace, every other file (sibling skills included, which composed skills name) where it was.
 */
import type { Problem } from '@skillhub/errors';
import { detectFormat, isSwarmKitSkill, isSwarmKitWorkspace } from './detect-format';
import type { SkillFile } from './skill.model';

export const WORKSPACE_SKILLS_FOLDER = 'skills/';

/** One skill of a workspace: where it was, and the files of its own bundle. */
export interface WorkspaceSkill<F extends SkillFile = SkillFile> {
  skillPath: string;
  files: F[];
}

export type WorkspaceSplit<F extends SkillFile = SkillFile> =
  { ok: true; skills: WorkspaceSkill<F>[] } | { ok: false; problem: Problem };

/**
 * The skills of a workspace bundle, or null for a bundle that is not one (it has a skill manifest at
 * its root, or no SwarmKit workspace there, or no skill under `skills/`).
 */
export function workspaceSkills<F extends SkillFile>(files: readonly F[]): WorkspaceSplit<F> | null {
  if (detectFormat(files).ok) return null;
  const root = files.filter((file) => !file.path.includes('/'));
  if (!root.some(isSwarmKitWorkspace)) return null;
  const skills = files.filter((file) => file.path.startsWith(WORKSPACE_SKILLS_FOLDER) && isSwarmKitSkill(file));
  if (skills.length === 0) return null;
  const rootNames = new Set(root.map((file) => file.path));
  const taken = new Map<string, string>();
  for (const skill of skills) {
    const name = skill.path.slice(skill.path.lastIndexOf('/') + 1);
    const clash = rootNames.has(name) ? name : taken.get(name);
    if (clash !== undefined) {
      return {
        ok: false,
        problem: {
          path: skill.path,
          message: `its file name is also ${rootNames.has(name) ? 'a file at the workspace root' : `the name of ${clash}`}; each skill of a workspace is published with its file at the root, so the names must differ`,
          severity: 'error',
        },
      };
    }
    taken.set(name, skill.path);
  }
  return {
    ok: true,
    skills: skills.map((skill) => ({
      skillPath: skill.path,
      files: [
        { ...skill, path: skill.path.slice(skill.path.lastIndexOf('/') + 1) },
        ...files.filter((file) => file !== skill),
      ],
    })),
  };
}
