/**
 * What a detonation runs for a skill, decided from its files alone (pure):
 * - an Agent Skill's or SwarmKit skill's scripts (`.sh`, `.py`, `.js`…), each with no arguments
 *   and with `--help`;
 * - the shell blocks its Markdown tells an agent to run (code-blocks.ts);
 * - a Kazma skill's entry module, imported, and each tool called with arguments from its schema.
 * What it cannot run is listed with the reason.
 */
import { posix } from 'node:path';
import type { Bundle } from '@skillhub/bundle';
import type { DetonationNotRun } from '@skillhub/certification';
import type { NormalizedSkill } from '@skillhub/skill-formats';
import { isMarkdownWithCommands, shellBlocks } from './code-blocks';

export type Language = 'shell' | 'python' | 'node';

export interface PlannedRun {
  what: string;
  file: string | null;
  line: number | null;
  language: Language;
  /** The interpreter's arguments; `{skill}` and `{harness}` stand for where the bundle and the harness are mounted. */
  args: string[];
  /** Runs the Kazma harness (mounted beside the bundle). */
  harness?: true;
}

export interface DetonationPlan {
  runs: PlannedRun[];
  notRun: DetonationNotRun[];
}

export const SKILL_PLACEHOLDER = '{skill}';
export const HARNESS_PLACEHOLDER = '{harness}';

const SCRIPT_LANGUAGES: Readonly<Record<string, Language>> = {
  '.sh': 'shell',
  '.bash': 'shell',
  '.py': 'python',
  '.js': 'node',
  '.mjs': 'node',
  '.cjs': 'node',
};
/** Scripts run (each twice) and blocks run, at most; the rest is listed as not run. */
const MAX_SCRIPTS = 12;
const MAX_BLOCKS = 12;

export const planDetonation = (bundle: Bundle, skill: NormalizedSkill | null): DetonationPlan => {
  if (!skill) return { runs: [], notRun: [{ what: 'the skill', reason: 'its manifest did not parse (see C1)' }] };
  const runs: PlannedRun[] = [];
  const notRun: DetonationNotRun[] = [];
  if (skill.format === 'kazma') kazmaRuns(bundle, skill, runs, notRun);
  else scriptRuns(bundle, runs, notRun);
  blockRuns(bundle, runs, notRun);
  for (const command of skill.commands) {
    notRun.push({
      what: `the SwarmKit command ${command.pack}/${command.name}`,
      reason: 'commands run with the inputs an agent gives them; C11 and C15 judge them statically',
    });
  }
  return { runs, notRun };
};

const scriptRuns = (bundle: Bundle, runs: PlannedRun[], notRun: DetonationNotRun[]): void => {
  const scripts = bundle.files.filter((file) => SCRIPT_LANGUAGES[posix.extname(file.path).toLowerCase()] !== undefined);
  for (const [index, file] of scripts.entries()) {
    if (index >= MAX_SCRIPTS) {
      notRun.push({ what: file.path, reason: `only the first ${MAX_SCRIPTS} scripts are detonated` });
      continue;
    }
    const language = SCRIPT_LANGUAGES[posix.extname(file.path).toLowerCase()] as Language;
    const path = `${SKILL_PLACEHOLDER}/${file.path}`;
    runs.push({ what: file.path, file: file.path, line: null, language, args: [path] });
    runs.push({ what: `${file.path} --help`, file: file.path, line: null, language, args: [path, '--help'] });
  }
};

const blockRuns = (bundle: Bundle, runs: PlannedRun[], notRun: DetonationNotRun[]): void => {
  let count = 0;
  for (const file of bundle.files) {
    if (!isMarkdownWithCommands(file.path)) continue;
    const { blocks, skipped } = shellBlocks(file.path, file.content.toString('utf8'));
    for (const command of skipped) {
      notRun.push({ what: `${file.path}:${command.line} ${clip(command.command)}`, reason: command.reason });
    }
    for (const block of blocks) {
      const what = `the shell block at ${file.path}:${block.line}`;
      if (++count > MAX_BLOCKS) {
        notRun.push({ what, reason: `only the first ${MAX_BLOCKS} shell blocks are detonated` });
        continue;
      }
      runs.push({ what, file: file.path, line: block.line, language: 'shell', args: ['-c', block.script] });
    }
  }
};

const kazmaRuns = (bundle: Bundle, skill: NormalizedSkill, runs: PlannedRun[], notRun: DetonationNotRun[]): void => {
  const entry = skill.entryPoint;
  if (entry === null || !bundle.files.some((file) => file.path === entry)) {
    notRun.push({ what: 'the entry module', reason: 'the skill names no entry point file of its bundle' });
    return;
  }
  const declared = skill.manifest.entry_point;
  const className = typeof declared === 'string' && declared.includes(':') ? (declared.split(':')[1] ?? '') : '';
  const tools = skill.tools.map((tool) => ({ name: tool.name, args: schemaArguments(toolSchema(skill, tool.name)) }));
  runs.push({
    what: tools.length > 0 ? `${entry}: its tools ${tools.map((t) => t.name).join(', ')}` : `${entry}: its functions`,
    file: entry,
    line: null,
    language: 'python',
    args: [HARNESS_PLACEHOLDER, `${SKILL_PLACEHOLDER}/${entry}`, className, JSON.stringify(tools)],
    harness: true,
  });
};

/** The JSON schema a Kazma tool declares for its arguments, under any of the names seen in the wild. */
const toolSchema = (skill: NormalizedSkill, name: string): unknown => {
  const tools = skill.manifest.tools;
  if (!tools || typeof tools !== 'object' || Array.isArray(tools)) return null;
  const tool = (tools as Record<string, unknown>)[name];
  if (!tool || typeof tool !== 'object') return null;
  const fields = tool as Record<string, unknown>;
  return fields.parameters ?? fields.input_schema ?? fields.inputSchema ?? fields.schema ?? fields.arguments ?? null;
};

/** A value for each property of an object schema (its example, default or first enum value, else one of its type); null: none declared. */
export const schemaArguments = (schema: unknown): Record<string, unknown> | null => {
  if (!schema || typeof schema !== 'object') return null;
  const properties = (schema as { properties?: unknown }).properties;
  if (!properties || typeof properties !== 'object') return null;
  return Object.fromEntries(
    Object.entries(properties as Record<string, unknown>).map(([key, property]) => [key, sampleValue(property)]),
  );
};

const sampleValue = (property: unknown): unknown => {
  if (!property || typeof property !== 'object') return 'test';
  const p = property as Record<string, unknown>;
  if (Array.isArray(p.examples) && p.examples.length > 0) return p.examples[0];
  if (p.default !== undefined) return p.default;
  if (Array.isArray(p.enum) && p.enum.length > 0) return p.enum[0];
  const type = Array.isArray(p.type) ? p.type[0] : p.type;
  switch (type) {
    case 'integer':
      return 1;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return schemaArguments(p) ?? {};
    case 'null':
      return null;
    default:
      return 'test';
  }
};

const clip = (text: string): string => (text.length > 80 ? `${text.slice(0, 79)}…` : text);
