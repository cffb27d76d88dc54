/**
 * SwarmKit skills: YAML with `apiVersion: swarmkit/v1`, `kind: Skill` (docs/formats.md), checked as
 * SwarmKit's Skill schema v1 checks them, plus the `command` and `agent` types the hub documents.
 * SwarmKit has no permission field: a scope `permission:<name>` in `iam.required_scopes` (e.g.
 * `permission:process_exec`) declares the permission `<name>`; every scope is kept in `scopes`.
 * What an mcp_tool or command skill runs is read from the bundle's workspace files: the server it
 * calls (`mcp_servers`) and the commands of the pack it names (`command_packs`).
 * Beyond the schema the hub keeps two registry rules: `metadata.id` is at most 64 characters (it is
 * the skill's name) and `provenance.version` is strict `X.Y.Z` without leading zeros (it is the version).
 */
import { hasErrors, type Problem } from '@skillhub/errors';
import { echo, FieldReader, kindOf, type StringRule } from './field.reader';
import type { FieldPath } from './manifest-source';
import { IDENTIFIER_RULE, publisherFromContext, VERSION_RULE } from './manifest-rules';
import { readCommandPack } from './command-pack.reader';
import { readMcpServer, type McpServerShape } from './mcp-server.reader';
import { uniqueNames, warnUnknownPermissions } from './permissions';
import { MAX_MANIFEST_BYTES, readYamlManifest } from './safe-yaml';
import type {
  CommandRef,
  DeclaredTool,
  McpServerRef,
  ParseContext,
  ParseResult,
  ServerUse,
  SkillFile,
} from './skill.model';

export const SWARMKIT_WORKSPACE_FILE = 'workspace.yaml';
/** SwarmKit looks for `workspace.yaml`, then `workspace.yml`, in a folder. */
const WORKSPACE_FILE_NAMES = [SWARMKIT_WORKSPACE_FILE, 'workspace.yml'];

const TOP_LEVEL_KEYS = [
  'apiVersion',
  'kind',
  'metadata',
  'category',
  'implementation',
  'provenance',
  'inputs',
  'outputs',
  'iam',
  'constraints',
  'audit',
];
const CATEGORIES = ['capability', 'decision', 'coordination', 'persistence'] as const;
const AUTHORED_BY = [
  'human',
  'authored_by_swarm',
  'derived_from_template',
  'imported_from_registry',
  'vendor_published',
];
const PERMISSION_TIERS = ['open', 'cautious', 'strict', 'readonly'];
const LOG_LEVELS = ['full', 'summary', 'none'];

/** Each implementation type's own checks, and the keys it allows beside `type`. */
const IMPLEMENTATIONS: Readonly<Record<string, { keys: readonly string[]; check: (reader: FieldReader) => void }>> = {
  mcp_tool: { keys: ['server', 'tool', 'arguments'], check: checkMcpTool },
  llm_prompt: { keys: ['prompt', 'model'], check: checkLlmPrompt },
  composed: { keys: ['composes', 'strategy'], check: checkComposed },
  command: { keys: ['pack', 'command'], check: checkCommand },
  agent: {
    keys: [
      'topology',
      'card_url',
      'skill_id',
      'credentials_ref',
      'timeout_s',
      'on_unanswerable',
      'max_agent_answers',
      'permission',
      'effects',
    ],
    check: checkAgent,
  },
};

/** SwarmKit's schema sets no length limits: the manifest's size cap is the only bound on a field. */
const UNBOUNDED = MAX_MANIFEST_BYTES;
const SCOPE_RULE: StringRule = {
  max: UNBOUNDED,
  pattern: /^[a-z][a-z0-9_-]*:[a-z*][a-z0-9_*-]*$/,
  patternHint: 'namespace:action, e.g. "repo:read" or "mcp_servers:*"',
};
/** The scope namespace that declares a hub permission. */
const PERMISSION_SCOPE = 'permission:';
/** Any other text: names, prompts, references to packs and credentials. */
const TEXT: StringRule = { max: UNBOUNDED };
const DESCRIPTION: StringRule = { max: UNBOUNDED, min: 10 };
/** Ids that are not the skill's own (composed skills, topologies, servers). */
const REFERENCE_ID: StringRule = { ...IDENTIFIER_RULE, max: UNBOUNDED };

const WORKSPACE_SERVER_SHAPE: McpServerShape = {
  nameKey: 'id',
  nameRule: REFERENCE_ID,
  transportKeys: ['transport'],
  urlKey: 'endpoint',
};

export function parseSwarmKitSkill(
  files: readonly SkillFile[],
  manifestFile: SkillFile,
  context: ParseContext,
): ParseResult {
  const problems: Problem[] = [];
  const source = readYamlManifest(manifestFile, problems);
  if (!source) return { skill: null, problems };
  const reader = new FieldReader(source, problems);

  reader.onlyKeys([], TOP_LEVEL_KEYS);
  reader.oneOf(['apiVersion'], ['swarmkit/v1'], { required: true });
  reader.oneOf(['kind'], ['Skill'], { required: true });
  const metadata = readMetadata(reader);
  const category = reader.oneOf(['category'], CATEGORIES, { required: true });
  reader.map(['inputs']);
  checkOutputs(reader, category === 'decision');
  const implementationType = readImplementation(reader);
  const scopes = readScopes(reader);
  checkConstraints(reader);
  checkAudit(reader);
  const version = readProvenance(reader);
  const publisher = publisherFromContext(context, 'SwarmKit skills', problems);
  const use = implementationType === 'mcp_tool' ? readServerUse(files, reader, problems) : null;
  const commands = implementationType === 'command' ? readCommands(files, reader, problems) : [];

  if (hasErrors(problems) || !metadata || !category || !version || !publisher) return { skill: null, problems };
  return {
    skill: {
      format: 'swarmkit',
      ...publisher,
      name: metadata.id,
      version,
      description: metadata.description,
      license: null,
      category,
      capabilities: [],
      permissions: scopePermissions(reader, scopes),
      scopes,
      tags: [],
      tools: declaredTools(reader, metadata.description),
      mcpServers: use?.server ? [use.server] : [],
      serverUses: use ? [use.use] : [],
      commands,
      entryPoint: null,
      manifestPath: source.file,
      homepage: null,
      repository: null,
      manifest: source.root,
    },
    problems,
  };
}

function readMetadata(reader: FieldReader): { id: string; description: string } | null {
  if (!reader.map(['metadata'], { required: true })) return null;
  reader.onlyKeys(['metadata'], ['id', 'name', 'description']);
  const id = reader.string(['metadata', 'id'], { ...IDENTIFIER_RULE, required: true });
  reader.string(['metadata', 'name'], { ...TEXT, required: true });
  const description = reader.string(['metadata', 'description'], { ...DESCRIPTION, required: true });
  if (description !== null) reader.checkText(['metadata', 'description'], description);
  return id !== null && description !== null ? { id, description } : null;
}

/**
 * SwarmKit's schema asks one thing of a decision skill's outputs: `properties` with a `reasoning`
 * entry, so every verdict comes with its rationale. `verdict` and `confidence` are conventions only.
 */
function checkOutputs(reader: FieldReader, isDecision: boolean): void {
  const outputs = reader.map(['outputs'], { required: isDecision });
  if (!outputs || !isDecision) return;
  const properties = reader.map(['outputs', 'properties'], { required: true });
  if (properties && !Object.hasOwn(properties, 'reasoning')) {
    reader.error(['outputs', 'properties'], `A decision skill's outputs must declare "reasoning" (SwarmKit's schema)`);
  }
}

function readImplementation(reader: FieldReader): string | null {
  if (!reader.map(['implementation'], { required: true })) return null;
  const type = reader.oneOf(['implementation', 'type'], Object.keys(IMPLEMENTATIONS), { required: true });
  const rules = type === null ? undefined : IMPLEMENTATIONS[type];
  if (!rules) return null;
  reader.onlyKeys(['implementation'], ['type', ...rules.keys]);
  rules.check(reader);
  return type;
}

function checkMcpTool(reader: FieldReader): void {
  reader.string(['implementation', 'server'], { ...TEXT, required: true });
  reader.string(['implementation', 'tool'], { ...TEXT, required: true });
  reader.map(['implementation', 'arguments']);
}

function checkLlmPrompt(reader: FieldReader): void {
  const prompt = reader.string(['implementation', 'prompt'], { ...TEXT, required: true });
  if (prompt !== null) reader.checkText(['implementation', 'prompt'], prompt);
  // The schema has `model` as a map ({provider, name}); documents also show a bare model name.
  reader.either(['implementation', 'model'], ['map', 'string']);
}

function checkComposed(reader: FieldReader): void {
  if (reader.list(['implementation', 'composes'], { required: true, nonEmpty: true })) {
    reader.stringList(['implementation', 'composes'], REFERENCE_ID);
  }
  reader.oneOf(['implementation', 'strategy'], ['parallel-consensus', 'sequential', 'custom']);
}

function checkCommand(reader: FieldReader): void {
  reader.string(['implementation', 'pack'], { ...TEXT, required: true });
  reader.string(['implementation', 'command'], { ...TEXT, required: true });
}

/** Another agent as a skill: exactly one of a local `topology` or a remote `card_url`. */
function checkAgent(reader: FieldReader): void {
  const at = (key: string): FieldPath => ['implementation', key];
  const targets = ['topology', 'card_url'].filter((key) => reader.has(at(key)));
  if (targets.length !== 1) {
    const got = targets.length === 0 ? 'neither' : 'both';
    reader.error(['implementation'], `An agent implementation needs exactly one of topology or card_url, got ${got}`);
  }
  reader.string(at('topology'), REFERENCE_ID);
  reader.httpUrl(at('card_url'));
  reader.string(at('skill_id'), TEXT);
  reader.string(at('credentials_ref'), TEXT);
  reader.integer(at('timeout_s'), { min: 1 });
  reader.oneOf(at('on_unanswerable'), ['agent', 'relay', 'abort']);
  reader.integer(at('max_agent_answers'), { min: 0 });
  reader.oneOf(at('permission'), PERMISSION_TIERS);
  reader.oneOf(at('effects'), ['read', 'write', 'unknown']);
}

function readScopes(reader: FieldReader): string[] {
  if (!reader.map(['iam'])) return [];
  reader.onlyKeys(['iam'], ['required_scopes']);
  return reader.stringList(['iam', 'required_scopes'], SCOPE_RULE);
}

/** `permission:<name>` scopes, as permission names. */
function scopePermissions(reader: FieldReader, scopes: readonly string[]): string[] {
  const permissions = uniqueNames(
    scopes.filter((scope) => scope.startsWith(PERMISSION_SCOPE)).map((scope) => scope.slice(PERMISSION_SCOPE.length)),
  );
  warnUnknownPermissions(reader, ['iam', 'required_scopes'], permissions);
  return permissions;
}

function checkConstraints(reader: FieldReader): void {
  if (!reader.map(['constraints'])) return;
  reader.onlyKeys(['constraints'], ['max_latency_ms', 'timeout_seconds', 'retry', 'on_failure']);
  reader.integer(['constraints', 'max_latency_ms'], { min: 1 });
  reader.integer(['constraints', 'timeout_seconds'], { min: 1 });
  reader.oneOf(['constraints', 'on_failure'], ['escalate_to_human', 'fail', 'retry', 'fallback']);
  if (!reader.map(['constraints', 'retry'])) return;
  reader.onlyKeys(['constraints', 'retry'], ['attempts', 'backoff']);
  reader.integer(['constraints', 'retry', 'attempts'], { min: 0 });
  reader.oneOf(['constraints', 'retry', 'backoff'], ['exponential', 'linear', 'none']);
}

function checkAudit(reader: FieldReader): void {
  if (!reader.map(['audit'])) return;
  reader.onlyKeys(['audit'], ['log_inputs', 'log_outputs', 'redact']);
  reader.oneOf(['audit', 'log_inputs'], LOG_LEVELS);
  reader.oneOf(['audit', 'log_outputs'], LOG_LEVELS);
  reader.stringList(['audit', 'redact'], TEXT);
}

function readProvenance(reader: FieldReader): string | null {
  if (!reader.map(['provenance'], { required: true })) return null;
  reader.onlyKeys(
    ['provenance'],
    ['authored_by', 'authored_date', 'version', 'requires_runtime', 'registry', 'vendor'],
  );
  reader.oneOf(['provenance', 'authored_by'], AUTHORED_BY, { required: true });
  reader.string(['provenance', 'authored_date'], {
    max: 10,
    pattern: /^\d{4}-\d{2}-\d{2}$/,
    patternHint: 'a date YYYY-MM-DD',
  });
  reader.string(['provenance', 'requires_runtime'], {
    max: 64,
    pattern: /^>=\d+\.\d+\.\d+$/,
    patternHint: '">=X.Y.Z"',
  });
  reader.string(['provenance', 'registry'], TEXT);
  reader.string(['provenance', 'vendor'], TEXT);
  return reader.string(['provenance', 'version'], { ...VERSION_RULE, required: true });
}

/** An mcp_tool skill declares the one tool it calls. */
function declaredTools(reader: FieldReader, description: string): DeclaredTool[] {
  const tool = reader.value(['implementation', 'tool']);
  return typeof tool === 'string' ? [{ name: tool, description }] : [];
}

/**
 * The server an mcp_tool skill calls, and its definition when a workspace file of the bundle has
 * one, so that its launch can be checked. Without one the skill is still valid, but unverified.
 */
function readServerUse(
  files: readonly SkillFile[],
  skill: FieldReader,
  problems: Problem[],
): { use: ServerUse; server: McpServerRef | null } | null {
  const server = skill.value(['implementation', 'server']);
  const tool = skill.value(['implementation', 'tool']);
  if (typeof server !== 'string' || typeof tool !== 'string') return null;
  const preset = skill.value(['implementation', 'arguments']);
  const args = kindOf(preset) === 'map' ? (preset as Record<string, unknown>) : {};
  const definition = findServerDefinition(files, skill, server, problems);
  return { use: { server, tool, arguments: args, defined: definition !== null }, server: definition };
}

function findServerDefinition(
  files: readonly SkillFile[],
  skill: FieldReader,
  serverId: string,
  problems: Problem[],
): McpServerRef | null {
  const found = findInWorkspaces(files, skill.file, 'mcp_servers', serverId, problems);
  if (found === null) return null;
  if ('reader' in found) return readMcpServer(found.reader, found.path, WORKSPACE_SERVER_SHAPE);
  skill.warning(
    ['implementation', 'server'],
    `MCP server ${echo(serverId)} is ${notFound(found.searched)}, so its launch cannot be checked`,
  );
  return null;
}

/**
 * What a command skill runs: the commands of the pack it names (SwarmKit's `command_packs` in a
 * workspace file), the named one first. A pack, or a command, that the bundle does not define
 * leaves the skill valid but unverified, as an undefined server does.
 */
function readCommands(files: readonly SkillFile[], skill: FieldReader, problems: Problem[]): CommandRef[] {
  const pack = skill.value(['implementation', 'pack']);
  const command = skill.value(['implementation', 'command']);
  if (typeof pack !== 'string' || typeof command !== 'string') return [];
  const found = findInWorkspaces(files, skill.file, 'command_packs', pack, problems);
  if (found === null) return [];
  if (!('reader' in found)) {
    skill.warning(
      ['implementation', 'pack'],
      `Command pack ${echo(pack)} is ${notFound(found.searched)}, so what its command runs cannot be checked`,
    );
    return [];
  }
  const commands = readCommandPack(found.reader, found.path, pack, REFERENCE_ID);
  const named = commands.filter((ref) => ref.name === command);
  if (named.length === 0 && !hasErrors(problems)) {
    skill.warning(
      ['implementation', 'command'],
      `Command pack ${echo(pack)} in ${found.reader.file} has no command ${echo(command)}, so what the skill runs cannot be checked`,
    );
  }
  return [...named, ...commands.filter((ref) => ref.name !== command)];
}

/** Where a workspace file defines the entry of `listKey` whose `id` is `id`, or the files searched in vain. */
function findInWorkspaces(
  files: readonly SkillFile[],
  manifestPath: string,
  listKey: string,
  id: string,
  problems: Problem[],
): { reader: FieldReader; path: FieldPath } | { searched: SkillFile[] } | null {
  const workspaces = workspaceFiles(files, manifestPath);
  for (const file of workspaces) {
    const source = readYamlManifest(file, problems);
    if (!source) return null;
    const workspace = new FieldReader(source, problems);
    const index = (workspace.list([listKey]) ?? []).findIndex((_, at) => workspace.value([listKey, at, 'id']) === id);
    if (index !== -1) return { reader: workspace, path: [listKey, index] };
  }
  return { searched: workspaces };
}

const notFound = (searched: readonly SkillFile[]): string =>
  searched.length === 0
    ? `not defined in the bundle (no ${SWARMKIT_WORKSPACE_FILE})`
    : `defined in none of ${searched.map((file) => file.path).join(', ')}`;

/**
 * Workspace files in the order they are searched: SwarmKit's own place first (the skill file's
 * folder, then each folder above it up to the bundle root), then any other one in the bundle,
 * shallowest first, for skills shipped with their workspace in a subfolder.
 */
function workspaceFiles(files: readonly SkillFile[], manifestPath: string): SkillFile[] {
  const workspaces = files.filter((file) => WORKSPACE_FILE_NAMES.includes(file.path.split('/').pop() as string));
  const ownPlaces = foldersUp(manifestPath).flatMap((folder) =>
    WORKSPACE_FILE_NAMES.map((name) => (folder === '' ? name : `${folder}/${name}`)),
  );
  const own = ownPlaces.flatMap((path) => workspaces.filter((file) => file.path === path));
  const depth = (file: SkillFile) => file.path.split('/').length;
  const others = workspaces
    .filter((file) => !own.includes(file))
    .sort((a, b) => depth(a) - depth(b) || (a.path < b.path ? -1 : 1));
  return [...own, ...others];
}

/** The folder of `path`, then each folder above it, ending with the root (''). */
function foldersUp(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return parts.map((_, index) => parts.slice(0, parts.length - index).join('/')).concat('');
}
