/** The one normalized model every skill format is parsed into. */
import type { Problem } from '@skillhub/errors';

export type SkillFormat = 'kazma' | 'swarmkit' | 'agent-skill';

export const SKILL_FORMATS: readonly SkillFormat[] = ['kazma', 'swarmkit', 'agent-skill'];

export type McpTransport = 'stdio' | 'sse' | 'streamable-http';

/** A package an MCP server runs, as far as the manifest tells it. */
export interface PackageRef {
  registry: 'npm' | 'pypi';
  /** Registry name: npm name as written (`@scope/name`), PyPI name normalized per PEP 503. */
  name: string;
  /** Exact version when the manifest pins one (`pkg@1.2.3`, `pkg==1.2.3`), else null. */
  version: string | null;
  /** The text it was read from, e.g. `npx -y @scope/name@1.2.3`. */
  source: string;
}

export interface McpServerRef {
  name: string;
  transport: McpTransport;
  /** argv for stdio servers. */
  command: string[] | null;
  /** URL for sse / streamable-http servers. */
  url: string | null;
  packages: PackageRef[];
  /** Environment variables the server is started with, as declared (values may hold `${VAR}`); {} when none. */
  env: Record<string, string>;
  /** Working folder as declared, or null. */
  cwd: string | null;
  /** Path (inside the bundle) of the file that declares it: the manifest, or a SwarmKit workspace.yaml. */
  declaredIn: string;
}

/** A server the skill calls by name (SwarmKit `implementation.server` of an mcp_tool skill). */
export interface ServerUse {
  server: string;
  /** The one tool it calls (`implementation.tool`). */
  tool: string;
  /** `implementation.arguments`, preset on every call ({} when none). */
  arguments: Record<string, unknown>;
  /** A definition of the server was found in the bundle (it is then also in `mcpServers`). */
  defined: boolean;
}

/**
 * A program a SwarmKit command skill runs: one command of a workspace's `command_packs`, started
 * as SwarmKit's runtime starts it (argv without a shell, each `{name}` placeholder filled with the
 * skill's input inside its one element, the pack's env and cwd). The parser lists every command of
 * the pack the skill names, that one first: a pack is what SwarmKit grants (`pack:<id>` gives an
 * agent all of it, and the runtime makes each command a skill of its own), so all of it can run.
 */
export interface CommandRef {
  /** The pack's `id`. */
  pack: string;
  /** The command's `id` in the pack. */
  name: string;
  /** As declared, placeholders unfilled. */
  argv: string[];
  /** The pack's environment as declared (values may hold `${VAR}` or `{credential.<ref>}`); {} when none. */
  env: Record<string, string>;
  /** The pack's working folder as declared, or null (SwarmKit then uses the workspace root). */
  cwd: string | null;
  /** Path (inside the bundle) of the workspace file that declares the pack. */
  declaredIn: string;
}

export interface DeclaredTool {
  name: string;
  description: string;
}

export interface NormalizedSkill {
  format: SkillFormat;
  /** The author as written in the manifest (or the namespace, for formats that have none). */
  author: string;
  /** `slugify(author)`: the namespace the skill is published under. */
  namespace: string;
  name: string;
  /** Strict semver `X.Y.Z` (pre-release allowed only where the format allows it). */
  version: string;
  description: string;
  license: string | null;
  category: string | null;
  capabilities: string[];
  /** Permission names the skill declares (Kazma's vocabulary plus the hub's `process_exec`, `env_read`). */
  permissions: string[];
  /** SwarmKit `iam.required_scopes`, all of them; [] for other formats. */
  scopes: string[];
  tags: string[];
  tools: DeclaredTool[];
  mcpServers: McpServerRef[];
  /** Servers the skill calls by name (SwarmKit mcp_tool); [] for Kazma and Agent Skills. */
  serverUses: ServerUse[];
  /**
   * The programs a SwarmKit command skill runs: its pack's commands, the one it names first; [] for
   * other skills, and when no workspace file of the bundle defines the pack (a warning says so).
   */
  commands: CommandRef[];
  /** Path of the entry-point file inside the bundle (Kazma code skills), else null. */
  entryPoint: string | null;
  /** Path of the manifest file inside the bundle (`skill_manifest.yaml`, `SKILL.md`, `skill.yaml`). */
  manifestPath: string;
  homepage: string | null;
  repository: string | null;
  /** The parsed manifest document as plain JSON (for storage and later checks). */
  manifest: Record<string, unknown>;
}

/** What the publisher's request says, for formats whose files lack it. */
export interface ParseContext {
  /** Namespace of the publisher (Agent Skills have no author field). */
  namespace?: string;
  /** Version from the publish request (Agent Skills have no version field). */
  version?: string;
  /** Name of the bundle's top-level folder, if any (an Agent Skill's name must equal it). */
  folderName?: string | null;
}

export interface ParseResult {
  /** Null whenever `problems` holds an error. */
  skill: NormalizedSkill | null;
  /** Every problem found, errors and warnings, in file order. */
  problems: Problem[];
}

/** A file of the bundle, as the parser sees it. */
export interface SkillFile {
  path: string;
  content: Buffer;
}
