/**
 * Arguments a skill fixes for its tool (SwarmKit `implementation.arguments`): merged into every
 * call, and never the caller's to change. A call that gives a preset argument another value is
 * refused, naming it, rather than silently overwritten: the caller learns that the value it
 * meant is not what would run. Giving the preset value itself is harmless and accepted.
 */
import { canonicalJson } from '@skillhub/signing';
import type { ToolArguments } from './tool-arguments';

export interface PresetArguments {
  /** The call's arguments with the presets merged in: what the tool receives. */
  args: ToolArguments;
  /** Preset arguments the call tried to change, sorted. */
  changed: string[];
}

/** Throws on presets that are not a JSON object (the gate turns that into a deny). */
export function applyPresets(args: ToolArguments, presets: unknown): PresetArguments {
  if (presets === undefined || presets === null) return { args, changed: [] };
  if (typeof presets !== 'object' || Array.isArray(presets)) throw new Error('preset arguments must be a JSON object');
  const fixed = JSON.parse(canonicalJson(presets)) as ToolArguments;
  const changed = Object.keys(fixed)
    .filter((key) => Object.hasOwn(args, key) && canonicalJson(args[key]) !== canonicalJson(fixed[key]))
    .sort();
  return { args: { ...args, ...fixed }, changed };
}

/** A tool's input schema as a caller should see it: the preset arguments are not its to give. */
export function withoutPresetProperties(inputSchema: unknown, presets: Readonly<Record<string, unknown>>): unknown {
  const preset = (key: unknown): boolean => typeof key === 'string' && Object.hasOwn(presets, key);
  if (typeof inputSchema !== 'object' || inputSchema === null) return inputSchema;
  const schema: Record<string, unknown> = { ...(inputSchema as Record<string, unknown>) };
  if (typeof schema.properties === 'object' && schema.properties !== null) {
    schema.properties = Object.fromEntries(Object.entries(schema.properties).filter(([key]) => !preset(key)));
  }
  if (Array.isArray(schema.required)) schema.required = schema.required.filter((key) => !preset(key));
  return schema;
}
