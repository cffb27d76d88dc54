/**
 * C10's reading of names: which names of a skill people read, and what a likeness to another
 * owner's name makes of them. How alike two names look is @skillhub/text-analysis's (skeletons,
 * edit distance); this file holds the policy.
 */
import type { NormalizedSkill } from '@skillhub/skill-formats';
import { compareNames, type NameLikeness } from '@skillhub/text-analysis';
import type { Severity } from '../finding';
import type { LiveServerProbe } from '../live-server';

export type Likeness = NameLikeness;

export type NameRole = 'author' | 'namespace' | 'name' | 'display name' | 'tool name' | 'server name';

/** A name a person choosing or approving a skill reads, and the file that shows it. */
export interface ReadName {
  role: NameRole;
  value: string;
  file: string;
}

/** How alike two names look: the same, confusable (same skeleton), or a few edits apart. */
export const likeness = (a: string, b: string): Likeness | null => compareNames(a, b);

/**
 * A pure lookalike (same skeleton, different letters) is there to be taken for the other name:
 * it fails. A name that is the same or a few edits away can be innocent: a reviewer decides.
 */
export const likenessSeverity = (alike: Likeness): Severity => (alike.kind === 'confusable' ? 'high' : 'medium');

/** Closest first: the same name, then lookalikes, then by distance. */
export const likenessRank = (alike: Likeness): number =>
  alike.kind === 'same' ? 0 : alike.kind === 'confusable' ? 1 : alike.distance + 1;

export function describeLikeness(alike: Likeness): string {
  if (alike.kind === 'same') return 'is the same as';
  if (alike.kind === 'confusable') return 'is spelled confusably like';
  return `is ${alike.distance} edit${alike.distance === 1 ? '' : 's'} away from`;
}

/** Keys a manifest may give a display name under (SwarmKit's `metadata.name` is one). */
const DISPLAY_NAME_KEYS = ['display_name', 'displayName', 'display-name', 'title'];

/** The names of a skill people read: its author as written, name, display name, tool and server names. */
export function namesPeopleRead(skill: NormalizedSkill, liveServers: readonly LiveServerProbe[]): ReadName[] {
  const file = skill.manifestPath;
  const names: ReadName[] = [
    { role: 'author', value: skill.author, file },
    { role: 'name', value: skill.name, file },
    ...displayNames(skill).map((value): ReadName => ({ role: 'display name', value, file })),
    ...skill.tools.map((tool): ReadName => ({ role: 'tool name', value: tool.name, file })),
    ...skill.serverUses.map((use): ReadName => ({ role: 'tool name', value: use.tool, file })),
    ...skill.mcpServers.map((server): ReadName => ({
      role: 'server name',
      value: server.name,
      file: server.declaredIn,
    })),
  ];
  for (const probe of liveServers) {
    const declaredIn = skill.mcpServers.find((server) => server.name === probe.server)?.declaredIn ?? file;
    names.push(...probe.tools.map((tool): ReadName => ({ role: 'tool name', value: tool.name, file: declaredIn })));
  }
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = `${name.role} ${name.value}`;
    if (name.value === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function displayNames(skill: NormalizedSkill): string[] {
  const { manifest } = skill;
  const metadata = isRecord(manifest.metadata) ? manifest.metadata : {};
  const candidates = [
    ...(skill.format === 'swarmkit' ? [metadata.name] : []),
    ...DISPLAY_NAME_KEYS.flatMap((key) => [manifest[key], metadata[key]]),
  ];
  return [...new Set(candidates.filter((value): value is string => typeof value === 'string'))];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
