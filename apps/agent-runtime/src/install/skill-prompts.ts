/**
 * The skills the runtime offers as MCP prompts, instructions for the client's model and never code
 * run here: an Agent Skill's SKILL.md body; a SwarmKit `llm_prompt` skill's `implementation.prompt`
 * (its `inputs` properties as the prompt's arguments, a decision skill's `outputs` schema appended
 * as the shape to answer in; `model` is the client's choice, so it is not used); and a SwarmKit
 * `composed` skill, once every skill is installed, as the list of its parts (each an installed
 * skill that offers something, with the tools and prompts it offers) and how its `strategy` says to
 * use them. The runtime runs no model, so it cannot run a composition itself: the client's model
 * does, through the parts' own governed tools. A part that is not installed, or offers nothing,
 * keeps the composed skill from being offered, with the reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VerifiedSkill } from './verified-skill';
import { record } from './manifest-record';

export interface PromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

/** A skill offered to clients as an MCP prompt: instructions, never code. */
export interface SkillPrompt {
  name: string;
  description: string;
  text: string;
  /** Their values are given to the model after the text, as JSON. */
  arguments: readonly PromptArgument[];
}

/** A composed skill's parts, as its manifest names them. */
export interface ComposedParts {
  parts: string[];
  strategy: string | null;
}

/** What an installed skill ended up offering, for a composed skill to point at. */
export interface OfferedSkill {
  /** `author/name`. */
  ref: string;
  name: string;
  description: string;
  /** Gateway names of its tools: `mcp__<namespace>__<tool>`, or `mcp__<server>__*` for a whole server. */
  tools: string[];
  prompts: string[];
}

export type ComposedPromptReading = { ok: true; prompt: SkillPrompt } | { ok: false; reason: string };

const STRATEGIES: Readonly<Record<string, string>> = {
  sequential: 'Use them in this order, each one given the result of the one before it.',
  'parallel-consensus': 'Use each of them on the same input, then reconcile their answers into one.',
  custom: 'Use them as the description above says.',
};

export function skillPrompts(skill: VerifiedSkill): SkillPrompt[] {
  const { format, manifest, description } = skill.skill;
  if (format === 'agent-skill') {
    const markdown = readFileSync(join(skill.path, skill.skill.manifestPath), 'utf8');
    const body = markdown.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n?/, '');
    return [{ name: skill.ref, description, text: body, arguments: [] }];
  }
  const implementation = record(manifest.implementation);
  if (format !== 'swarmkit' || implementation.type !== 'llm_prompt' || typeof implementation.prompt !== 'string') {
    return [];
  }
  const answer =
    skill.skill.category === 'decision' && manifest.outputs !== undefined
      ? `\n\nAnswer with JSON that matches this JSON Schema:\n${JSON.stringify(manifest.outputs, null, 2)}`
      : '';
  return [
    { name: skill.ref, description, text: `${implementation.prompt}${answer}`, arguments: promptArguments(skill) },
  ];
}

export function composedParts(skill: VerifiedSkill): ComposedParts | null {
  const implementation = record(skill.skill.manifest.implementation);
  if (skill.skill.format !== 'swarmkit' || implementation.type !== 'composed') return null;
  const parts = Array.isArray(implementation.composes)
    ? implementation.composes.filter((part): part is string => typeof part === 'string')
    : [];
  return { parts, strategy: typeof implementation.strategy === 'string' ? implementation.strategy : null };
}

/**
 * Each part is the installed skill of that name by the same author, else the only installed skill
 * of that name; several of other authors, or none, is a reason not to offer the composed skill.
 */
export function composedPrompt(
  skill: VerifiedSkill,
  composed: ComposedParts,
  offered: readonly OfferedSkill[],
): ComposedPromptReading {
  const author = skill.ref.slice(0, skill.ref.indexOf('/'));
  const lines: string[] = [];
  for (const [index, part] of composed.parts.entries()) {
    const named = offered.filter(
      (candidate) =>
        candidate.name === part && candidate.ref !== skill.ref && candidate.tools.length + candidate.prompts.length > 0,
    );
    const own = named.filter((candidate) => candidate.ref === `${author}/${part}`);
    const found = own.length === 1 ? own : named;
    if (found.length === 0) {
      return {
        ok: false,
        reason: `its part ${part} is not an installed skill that offers anything (add ${author}/${part}@<range> to skills:, and see its log lines)`,
      };
    }
    if (found.length > 1) {
      return {
        ok: false,
        reason: `its part ${part} could be any of ${found.map((candidate) => candidate.ref).join(', ')}: install only one of them`,
      };
    }
    const [{ ref, description, tools, prompts }] = found as [OfferedSkill];
    const offers = [
      tools.length > 0 ? `tools ${tools.join(', ')}` : '',
      prompts.length > 0 ? `prompts ${prompts.join(', ')}` : '',
    ].filter(Boolean);
    lines.push(`${index + 1}. ${ref}: ${description} (${offers.join('; ')})`);
  }
  const strategy = STRATEGIES[composed.strategy ?? 'sequential'] ?? STRATEGIES.custom!;
  const text = [
    skill.skill.description,
    '',
    `This skill is made of ${composed.parts.length} skills. ${strategy}`,
    ...lines,
  ].join('\n');
  return {
    ok: true,
    prompt: { name: skill.ref, description: skill.skill.description, text, arguments: promptArguments(skill) },
  };
}

/** SwarmKit `inputs` (a JSON Schema object): its properties, as prompt arguments. */
function promptArguments(skill: VerifiedSkill): PromptArgument[] {
  const inputs = record(skill.skill.manifest.inputs);
  const required = Array.isArray(inputs.required) ? inputs.required : [];
  return Object.entries(record(inputs.properties)).map(([name, property]) => {
    const { description } = record(property);
    return {
      name,
      ...(typeof description === 'string' ? { description } : {}),
      required: required.includes(name),
    };
  });
}
