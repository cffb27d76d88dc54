/** SwarmKit skills: YAML with `apiVersion: swarmkit/v1`, `kind: Skill` (contracts.md §1b and SwarmKit's schema). */
import { hasErrors, type Problem } from '@skillhub/errors';
import { echo, FieldReader } from './field.reader';
import type { FieldPath } from './manifest-source';
import { IDENTIFIER_RULE, publisherFromContext, VERSION_RULE } from './manifest-rules';
import { readMcpServer, type McpServerShape } from './mcp-server.reader';
import { readYamlManifest } from './safe-yaml';
import type { DeclaredTool, McpServerRef, ParseContext, ParseResult, SkillFile } from './skill.model';

export const SWARMKIT_WORKSPACE_FILE = 'workspace.yaml';

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
const DECISION_OUTPUTS = ['verdict', 'confidence', 'reasoning'];
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

const SCOPE_RULE = {
  max: 128,
  pattern: /^[a-z][a-z0-9_-]*:[a-z*][a-z0-9_*-]*$/,
  patternHint: 'namespace:action, e.g. "repo:read" or "mcp_servers:*"',
};
const NAME = { max: 128 };
const DESCRIPTION = { max: 4096, min: 10 };
const PROMPT = { max: 64 * 1024 };

const WORKSPACE_SERVER_SHAPE: McpServerShape = {
  nameKey: 'id',
  nameRule: IDENTIFIER_RULE,
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
  const permissions = readIam(reader);
  checkConstraints(reader);
  checkAudit(reader);
  const version = readProvenance(reader);
  const publisher = publisherFromContext(context, 'SwarmKit skills', problems);
  const mcpServers = implementationType === 'mcp_tool' ? readWorkspaceServer(files, reader, problems) : [];

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
      permissions,
      tags: [],
      tools: declaredTools(reader, metadata.description),
      mcpServers,
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
  reader.string(['metadata', 'name'], { ...NAME, required: true });
  const description = reader.string(['metadata', 'description'], { ...DESCRIPTION, required: true });
  if (description !== null) reader.checkText(['metadata', 'description'], description);
  return id !== null && description !== null ? { id, description } : null;
}

/** A decision skill's outputs must be a JSON Schema object declaring verdict, confidence and reasoning. */
function checkOutputs(reader: FieldReader, isDecision: boolean): void {
  const outputs = reader.map(['outputs'], { required: isDecision });
  if (!outputs || !isDecision) return;
  if (reader.has(['outputs', 'type']) && reader.value(['outputs', 'type']) !== 'object') {
    reader.error(['outputs', 'type'], 'outputs.type must be "object" for a decision skill');
  }
  const properties = reader.map(['outputs', 'properties'], { required: true });
  if (!properties) return;
  for (const name of DECISION_OUTPUTS.filter((key) => !Object.hasOwn(properties, key))) {
    reader.error(
      ['outputs', 'properties'],
      `A decision skill's outputs must declare "${name}" (verdict, confidence and reasoning)`,
    );
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
  reader.string(['implementation', 'server'], { ...NAME, required: true });
  reader.string(['implementation', 'tool'], { ...NAME, required: true });
  reader.map(['implementation', 'arguments']);
}

function checkLlmPrompt(reader: FieldReader): void {
  const prompt = reader.string(['implementation', 'prompt'], { ...PROMPT, required: true });
  if (prompt !== null) reader.checkText(['implementation', 'prompt'], prompt);
  // The schema has `model` as a map ({provider, name}); documents also show a bare model name.
  reader.either(['implementation', 'model'], ['map', 'string']);
}

function checkComposed(reader: FieldReader): void {
  if (reader.list(['implementation', 'composes'], { required: true, nonEmpty: true })) {
    reader.stringList(['implementation', 'composes'], IDENTIFIER_RULE);
  }
  reader.oneOf(['implementation', 'strategy'], ['parallel-consensus', 'sequential', 'custom']);
}

function checkCommand(reader: FieldReader): void {
  reader.string(['implementation', 'pack'], { ...NAME, required: true });
  reader.string(['implementation', 'command'], { ...NAME, required: true });
}

/** Another agent as a skill: exactly one of a local `topology` or a remote `card_url`. */
function checkAgent(reader: FieldReader): void {
  const at = (key: string): FieldPath => ['implementation', key];
  const targets = ['topology', 'card_url'].filter((key) => reader.has(at(key)));
  if (targets.length !== 1) {
    const got = targets.length === 0 ? 'neither' : 'both';
    reader.error(['implementation'], `An agent implementation needs exactly one of topology or card_url, got ${got}`);
  }
  reader.string(at('topology'), IDENTIFIER_RULE);
  reader.httpUrl(at('card_url'));
  reader.string(at('skill_id'), NAME);
  reader.string(at('credentials_ref'), NAME);
  reader.integer(at('timeout_s'), { min: 1 });
  reader.oneOf(at('on_unanswerable'), ['agent', 'relay', 'abort']);
  reader.integer(at('max_agent_answers'), { min: 0 });
  reader.oneOf(at('permission'), PERMISSION_TIERS);
  reader.oneOf(at('effects'), ['read', 'write', 'unknown']);
}

/** The scopes a skill needs are what it asks permission for. */
function readIam(reader: FieldReader): string[] {
  if (!reader.map(['iam'])) return [];
  reader.onlyKeys(['iam'], ['required_scopes']);
  return reader.stringList(['iam', 'required_scopes'], SCOPE_RULE);
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
  reader.stringList(['audit', 'redact'], NAME);
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
  reader.string(['provenance', 'registry'], NAME);
  reader.string(['provenance', 'vendor'], NAME);
  return reader.string(['provenance', 'version'], { ...VERSION_RULE, required: true });
}

/** An mcp_tool skill declares the one tool it calls. */
function declaredTools(reader: FieldReader, description: string): DeclaredTool[] {
  const tool = reader.value(['implementation', 'tool']);
  return typeof tool === 'string' ? [{ name: tool, description }] : [];
}

/**
 * The MCP server an mcp_tool skill names, from the bundle's `workspace.yaml` when it carries one,
 * so the package it runs can be probed. Without it the skill is still valid, but nothing is probed.
 */
function readWorkspaceServer(files: readonly SkillFile[], skill: FieldReader, problems: Problem[]): McpServerRef[] {
  const serverId = skill.value(['implementation', 'server']);
  if (typeof serverId !== 'string') return [];
  const workspaceFile = files.find((file) => file.path === SWARMKIT_WORKSPACE_FILE);
  if (!workspaceFile) {
    const where = `not defined in the bundle (no ${SWARMKIT_WORKSPACE_FILE})`;
    skill.warning(
      ['implementation', 'server'],
      `MCP server ${echo(serverId)} is ${where}, so its package cannot be checked`,
    );
    return [];
  }
  const source = readYamlManifest(workspaceFile, problems);
  if (!source) return [];
  const workspace = new FieldReader(source, problems);
  const index = (workspace.list(['mcp_servers']) ?? []).findIndex(
    (_, at) => workspace.value(['mcp_servers', at, 'id']) === serverId,
  );
  if (index === -1) {
    skill.warning(
      ['implementation', 'server'],
      `${SWARMKIT_WORKSPACE_FILE} defines no MCP server ${echo(serverId)}, so its package cannot be checked`,
    );
    return [];
  }
  const server = readMcpServer(workspace, ['mcp_servers', index], WORKSPACE_SERVER_SHAPE);
  return server ? [server] : [];
}
