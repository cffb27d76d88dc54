/** A parsed manifest as the field checks see it: its file, its root map and where its fields sit. */

/** Keys and list indices from the manifest root down to a field, e.g. `['mcp_servers', 0, 'type']`. */
export type FieldPath = readonly (string | number)[];

export interface ManifestSource {
  /** Path of the manifest inside the bundle (`skill_manifest.yaml`, `SKILL.md`, ...). */
  file: string;
  root: Record<string, unknown>;
  /** 1-based line of a field in the file, when the manifest came from text. */
  lineOf(path: FieldPath): number | undefined;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Keys come from the manifest: a longer one is cut short in paths and messages. */
const KEY_MAX = 64;

/** `['mcp_servers', 0, 'type']` → `mcp_servers[0].type`; odd keys are quoted: `tools["a.b"]`. */
export function formatFieldPath(path: FieldPath): string {
  let text = '';
  for (const step of path) {
    if (typeof step === 'number') text += `[${step}]`;
    else if (step.length <= KEY_MAX && PLAIN_KEY.test(step)) text += text === '' ? step : `.${step}`;
    else text += `[${JSON.stringify(step.length > KEY_MAX ? `${step.slice(0, KEY_MAX)}…` : step)}]`;
  }
  return text;
}

/** The `Problem.path` of a field: `skill_manifest.yaml#mcp_servers[0].type`, or just the file. */
export function problemPath(file: string, path: FieldPath): string {
  return path.length === 0 ? file : `${file}#${formatFieldPath(path)}`;
}
