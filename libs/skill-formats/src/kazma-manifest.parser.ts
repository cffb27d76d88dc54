/**
 * Kazma code skills: `skill_manifest.yaml` (docs/kazma.md), from a bundle or as JSON from `kazma hub submit`.
 * Permissions are `permissions: [...]` or `permissions: {required: [...], optional: [...]}`; the skill's
 * permissions are both lists together, in order, each name once.
 */
import { hasErrors, type Problem } from '@skillhub/errors';
import { KAZMA_MANIFEST_FILE } from './detect-format';
import { echo, FieldReader, kindOf, type StringRule } from './field.reader';
import type { FieldPath, ManifestSource } from './manifest-source';
import { checkManifestValue, MAX_DECLARED_TOOLS, MAX_MCP_SERVERS } from './manifest-limits';
import { IDENTIFIER_RULE, VERSION_RULE } from './manifest-rules';
import { NAMESPACE_SLUG_PATTERN, slugify } from './slugify';
import { readMcpServer, type McpServerShape } from './mcp-server.reader';
import { PERMISSION_MAX, uniqueNames, warnUnknownPermissions } from './permissions';
import { readYamlManifest } from './safe-yaml';
import type { DeclaredTool, McpServerRef, NormalizedSkill, ParseResult, SkillFile } from './skill.model';

const KNOWN_FIELDS = [
  'name',
  'version',
  'description',
  'author',
  'license',
  'capabilities',
  'dependencies',
  'mcp_servers',
  'permissions',
  'entry_point',
  'config_schema',
  'min_core_version',
  'tags',
  'homepage',
  'repository',
  'category',
  'tools',
  'checksum',
  'signature',
  // Kazma's own coding skills: prompt skills run through its swarm, scoped to the workspace.
  'workspace_scoped',
  'hitl_gated',
  'swarm_instruction_template',
];

/** Common SPDX ids; another id is accepted with a warning (the full list is not worth carrying here). */
const COMMON_LICENSES = new Set([
  'MIT',
  'Apache-2.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'ISC',
  '0BSD',
  'Unlicense',
  'CC0-1.0',
  'CC-BY-4.0',
  'CC-BY-SA-4.0',
  'MPL-2.0',
  'EPL-2.0',
  'BSL-1.0',
  'Zlib',
  'Python-2.0',
  'GPL-2.0-only',
  'GPL-2.0-or-later',
  'GPL-3.0-only',
  'GPL-3.0-or-later',
  'LGPL-2.1-only',
  'LGPL-2.1-or-later',
  'LGPL-3.0-only',
  'LGPL-3.0-or-later',
  'AGPL-3.0-only',
  'AGPL-3.0-or-later',
]);

/** `my_skill.py`, `my_skill` or `my_skill:ClassName`: a Python module beside the manifest, never a path. */
const ENTRY_POINT = /^([A-Za-z_][A-Za-z0-9_]*)(?:\.py|:[A-Za-z_][A-Za-z0-9_]*)?$/;
const TOOL_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const TOOL_NAME_MAX = 128;

const MCP_SERVER_SHAPE: McpServerShape = {
  nameKey: 'name',
  nameRule: { max: 64, pattern: /^[A-Za-z0-9][A-Za-z0-9_-]*$/, patternHint: 'made of letters, digits, "-" and "_"' },
  transportKeys: ['type', 'transport'],
  urlKey: 'url',
};

const SHORT_TEXT: StringRule = { max: 128 };
const DESCRIPTION: StringRule = { max: 4096 };
const LIST_ITEM: StringRule = { max: 64 };
const PERMISSION: StringRule = { max: PERMISSION_MAX };
const PROMPT: StringRule = { max: 64 * 1024 };
const SHA256_HEX: StringRule = {
  max: 64,
  pattern: /^[0-9a-f]{64}$/,
  patternHint: '64 lowercase hex digits (a SHA-256)',
};

/** A Kazma skill from its bundle: the manifest's rules, plus the entry-point file must be there. */
export function parseKazmaSkill(files: readonly SkillFile[], manifestFile: SkillFile): ParseResult {
  const problems: Problem[] = [];
  const source = readYamlManifest(manifestFile, problems);
  if (!source) return { skill: null, problems };
  return readKazmaManifest(source, problems, new Set(files.map((file) => file.path)));
}

/** A Kazma manifest received as JSON (`kazma hub submit` sends no files): the same rules, no file checks. */
export function parseKazmaManifestObject(manifest: unknown): ParseResult {
  const problems: Problem[] = [];
  if (kindOf(manifest) !== 'map') {
    problems.push({ path: KAZMA_MANIFEST_FILE, message: 'The manifest must be a map of fields', severity: 'error' });
    return { skill: null, problems };
  }
  if (!checkManifestValue(manifest, KAZMA_MANIFEST_FILE, problems)) return { skill: null, problems };
  const source: ManifestSource = {
    file: KAZMA_MANIFEST_FILE,
    root: manifest as Record<string, unknown>,
    lineOf: () => undefined,
  };
  return readKazmaManifest(source, problems, null);
}

/** `bundlePaths` is null when only the manifest is known. */
function readKazmaManifest(
  source: ManifestSource,
  problems: Problem[],
  bundlePaths: ReadonlySet<string> | null,
): ParseResult {
  const reader = new FieldReader(source, problems);
  reader.onlyKeys([], KNOWN_FIELDS, 'warning');

  const required = readRequiredFields(reader);
  const entryPoint = readEntryPoint(reader, bundlePaths);
  const mcpServers = readMcpServers(reader);
  const tools = readTools(reader);
  const permissions = readPermissions(reader);
  const capabilities = reader.stringList(['capabilities'], LIST_ITEM);
  const tags = reader.stringList(['tags'], LIST_ITEM);
  const category = reader.string(['category'], LIST_ITEM);
  const homepage = reader.httpUrl(['homepage']);
  const repository = reader.httpUrl(['repository']);
  reader.either(['dependencies'], ['list', 'map']);
  reader.map(['config_schema']);
  reader.string(['min_core_version'], VERSION_RULE);
  reader.string(['checksum'], SHA256_HEX);
  reader.string(['signature'], SHA256_HEX);
  reader.boolean(['workspace_scoped']);
  reader.boolean(['hitl_gated']);
  readPrompt(reader, ['swarm_instruction_template']);

  if (hasErrors(problems) || !required) return { skill: null, problems };
  return {
    skill: {
      format: 'kazma',
      ...required,
      category,
      capabilities,
      permissions,
      scopes: [],
      tags,
      tools,
      mcpServers,
      serverUses: [],
      commands: [],
      entryPoint,
      manifestPath: source.file,
      homepage,
      repository,
      manifest: source.root,
    },
    problems,
  };
}

type RequiredFields = Pick<NormalizedSkill, 'name' | 'version' | 'description' | 'author' | 'namespace' | 'license'>;

function readRequiredFields(reader: FieldReader): RequiredFields | null {
  const name = reader.string(['name'], { ...IDENTIFIER_RULE, required: true });
  const version = reader.string(['version'], { ...VERSION_RULE, required: true });
  const description = reader.string(['description'], { ...DESCRIPTION, required: true });
  if (description !== null) reader.checkText(['description'], description);
  const author = readAuthor(reader);
  const license = readLicense(reader);
  if (name === null || version === null || description === null || author === null || license === null) return null;
  return { name, version, description, author: author.name, namespace: author.namespace, license };
}

function readAuthor(reader: FieldReader): { name: string; namespace: string } | null {
  const name = reader.string(['author'], { ...SHORT_TEXT, required: true });
  if (name === null) return null;
  const namespace = slugify(name);
  if (!NAMESPACE_SLUG_PATTERN.test(namespace)) {
    reader.error(['author'], 'author must contain Latin letters or digits, so that a namespace can be made of it');
    return null;
  }
  return { name, namespace };
}

/** Non-empty is required; an id outside the common SPDX ones is only a warning. */
function readLicense(reader: FieldReader): string | null {
  const license = reader.string(['license'], { ...SHORT_TEXT, required: true });
  if (license === null) return null;
  const ids = license
    .replace(/[()]/g, ' ')
    .split(/\s+(?:OR|AND)\s+/)
    .map((id) => id.trim().replace(/\+$/, ''));
  const unknown = ids.filter((id) => !COMMON_LICENSES.has(id));
  if (unknown.length > 0) {
    reader.warning(['license'], `license ${unknown.map(echo).join(', ')} is not a common SPDX license id`);
  }
  return license;
}

/** All three spellings name `<module>.py` beside the manifest; it must be in the bundle when the bundle is known. */
function readEntryPoint(reader: FieldReader, bundlePaths: ReadonlySet<string> | null): string | null {
  const entryPoint = reader.string(['entry_point'], {
    max: 128,
    pattern: ENTRY_POINT,
    patternHint: 'a Python module beside the manifest: "my_skill", "my_skill.py" or "my_skill:ClassName"',
  });
  if (entryPoint === null) return null;
  const file = `${(ENTRY_POINT.exec(entryPoint) as RegExpExecArray)[1]}.py`;
  if (bundlePaths && !bundlePaths.has(file)) {
    reader.error(['entry_point'], `entry_point names ${file}, which is not in the bundle`);
  }
  return file;
}

function readMcpServers(reader: FieldReader): McpServerRef[] {
  const servers: McpServerRef[] = [];
  const declared = reader.list(['mcp_servers']);
  if (declared && !withinLimit(reader, ['mcp_servers'], declared.length, MAX_MCP_SERVERS, 'servers')) return [];
  declared?.forEach((_, index) => {
    const server = readMcpServer(reader, ['mcp_servers', index], MCP_SERVER_SHAPE);
    if (server && servers.some((other) => other.name === server.name)) {
      reader.error(['mcp_servers', index, 'name'], `MCP server name ${echo(server.name)} is used twice`);
    } else if (server) {
      servers.push(server);
    }
  });
  return servers;
}

/**
 * `tools` maps a tool's name to `{description, category, ...}` (native skills). A tool without a
 * description is valid: Kazma shows the function's docstring instead, and its description here is ''.
 */
function readTools(reader: FieldReader): DeclaredTool[] {
  const tools = reader.map(['tools']);
  if (!tools) return [];
  const names = Object.keys(tools);
  if (!withinLimit(reader, ['tools'], names.length, MAX_DECLARED_TOOLS, 'tools')) return [];
  return names.flatMap((name) => {
    const path = ['tools', name];
    if (name.length > TOOL_NAME_MAX || !TOOL_NAME.test(name)) {
      reader.error(path, `Tool name ${echo(name)} must be letters, digits, "_", "." or "-" (at most ${TOOL_NAME_MAX})`);
    }
    if (!reader.map(path, { required: true })) return [];
    const descriptionPath = [...path, 'description'];
    const description = readPrompt(reader, descriptionPath, DESCRIPTION);
    if (!reader.has(descriptionPath) || description?.trim() === '') {
      const fallback = "Kazma falls back to the function's docstring";
      reader.warning(descriptionPath, `Tool ${echo(name)} has no description: ${fallback}`);
    }
    reader.string([...path, 'category'], LIST_ITEM);
    // Kazma shows `arabic_name` and the `prompt_chain` lines to the model beside the description.
    readPrompt(reader, [...path, 'arabic_name'], SHORT_TEXT);
    for (const [index, line] of reader.stringList([...path, 'prompt_chain'], DESCRIPTION).entries()) {
      reader.checkText([...path, 'prompt_chain', index], line);
    }
    return [{ name, description: description ?? '' }];
  });
}

/** Past the limit no entry is read: the checks each entry costs are what the limit bounds. */
function withinLimit(reader: FieldReader, path: FieldPath, count: number, max: number, what: string): boolean {
  if (count <= max) return true;
  reader.error(path, `${path.join('.')} declares ${count} ${what}; at most ${max} are accepted`);
  return false;
}

/** Text a model reads: its type and length checked, then its hidden characters. */
function readPrompt(reader: FieldReader, path: FieldPath, rule: StringRule = PROMPT): string | null {
  const text = reader.string(path, { ...rule, min: 0 });
  if (text !== null) reader.checkText(path, text);
  return text;
}

/** A list, or a `{required, optional}` map of lists: the union, in order, each name once. */
function readPermissions(reader: FieldReader): string[] {
  const value = reader.either(['permissions'], ['list', 'map']);
  let declared: string[] = [];
  if (Array.isArray(value)) {
    declared = reader.stringList(['permissions'], PERMISSION);
  } else if (value !== undefined) {
    reader.onlyKeys(['permissions'], ['required', 'optional'], 'warning');
    declared = [
      ...reader.stringList(['permissions', 'required'], PERMISSION),
      ...reader.stringList(['permissions', 'optional'], PERMISSION),
    ];
  }
  const permissions = uniqueNames(declared);
  warnUnknownPermissions(reader, ['permissions'], permissions);
  return permissions;
}
