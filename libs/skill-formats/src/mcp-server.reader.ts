/** Reads one MCP server entry (Kazma's `mcp_servers[]`, SwarmKit's `workspace.yaml`) into an McpServerRef. */
import { formatFieldPath, type FieldPath } from './manifest-source';
import { echo, type FieldReader, type StringRule } from './field.reader';
import { extractPackageRefs, packageRefFromSpec, splitCommandLine } from './package-ref.extractor';
import type { McpServerRef, McpTransport, PackageRef } from './skill.model';

/** How a format spells the entry's fields. */
export interface McpServerShape {
  nameKey: string;
  nameRule: StringRule;
  /** Keys that may hold the transport, in order of preference (Kazma: `type`, then `transport`). */
  transportKeys: readonly string[];
  urlKey: string;
}

const TRANSPORTS: readonly McpTransport[] = ['stdio', 'sse', 'streamable-http'];
/** Kazma's and SwarmKit's other spellings of the streamable HTTP transport. */
const TRANSPORT_ALIASES: Readonly<Record<string, McpTransport>> = {
  streamable_http: 'streamable-http',
  http: 'streamable-http',
};
const ACCEPTED_TRANSPORTS = [...TRANSPORTS, ...Object.keys(TRANSPORT_ALIASES)];

/** Bounds shared with the other launch declarations (SwarmKit command packs). */
export const ARG_MAX = 1024;
const COMMAND_LINE_MAX = 4096;
export const PATH_MAX = 4096;
/** Names a shell and `env` accept; anything else could not be set the way it is written. */
export const ENV_NAME: StringRule = {
  max: 256,
  pattern: /^[A-Za-z_][A-Za-z0-9_]*$/,
  patternHint: 'a letter or "_", then letters, digits or "_"',
};
/** Linux caps one argument or environment string at 128 KiB (MAX_ARG_STRLEN); the manifest cap is lower still. */
export const ENV_VALUE: StringRule = { max: 128 * 1024, min: 0 };

export function readMcpServer(reader: FieldReader, path: FieldPath, shape: McpServerShape): McpServerRef | null {
  if (!reader.map(path, { required: true })) return null;
  const name = reader.string([...path, shape.nameKey], { ...shape.nameRule, required: true });
  const transport = readTransport(reader, path, shape.transportKeys);
  const command = readCommand(reader, path);
  const url = reader.httpUrl([...path, shape.urlKey]);
  const packages = readPackages(reader, path, command);
  // Values stay as written (`${VAR}` unexpanded): the runtime expands them, the certifier judges them.
  const env = reader.stringMap([...path, 'env'], { key: ENV_NAME, value: ENV_VALUE });
  const cwd = reader.string([...path, 'cwd'], { max: PATH_MAX });
  if (name === null || transport === null) return null;
  return { name, transport, command, url, packages, env, cwd, declaredIn: reader.file };
}

/** The transport under whichever accepted key holds it; two keys that disagree are an error. */
function readTransport(reader: FieldReader, path: FieldPath, keys: readonly string[]): McpTransport | null {
  const given = keys.filter((key) => reader.has([...path, key]));
  if (given.length === 0) {
    const [first, ...others] = keys.map((key) => formatFieldPath([...path, key]));
    const alternatives = others.length > 0 ? ` (or ${others.join(', ')})` : '';
    reader.error([...path, keys[0] as string], `${first}${alternatives} is required: one of ${TRANSPORTS.join(', ')}`);
    return null;
  }
  const values = given.map((key) => reader.oneOf([...path, key], ACCEPTED_TRANSPORTS));
  if (values.includes(null)) return null;
  const transports = new Set(values.map((value) => TRANSPORT_ALIASES[value as string] ?? (value as McpTransport)));
  const [transport, ...others] = transports;
  if (others.length > 0) {
    reader.error([...path, given[given.length - 1] as string], `${given.join(' and ')} name different transports`);
    return null;
  }
  return transport ?? null;
}

/** argv from `command` (a list, or a string split on spaces) followed by `args`. */
function readCommand(reader: FieldReader, path: FieldPath): string[] | null {
  const commandPath = [...path, 'command'];
  const command = reader.either(commandPath, ['string', 'list']);
  let argv: string[] = [];
  if (typeof command === 'string') {
    argv = reader.string(commandPath, { max: COMMAND_LINE_MAX }) === null ? [] : splitCommandLine(command);
  } else if (Array.isArray(command)) {
    argv = reader.stringList(commandPath, { max: ARG_MAX });
  }
  const args = reader.stringList([...path, 'args'], { max: ARG_MAX, min: 0 });
  const full = [...argv, ...args];
  return full.length === 0 ? null : full;
}

/**
 * Packages the command runs, plus Kazma's explicit `package` field. A bare `package` takes its
 * registry from the command's runner (`npx` → npm, `uvx` → PyPI), or `npm:`/`pypi:` prefixes.
 */
function readPackages(reader: FieldReader, path: FieldPath, command: string[] | null): PackageRef[] {
  const fromCommand = command ? extractPackageRefs(command) : [];
  const packagePath = [...path, 'package'];
  const spec = reader.string(packagePath, { max: 300 });
  if (spec === null) return fromCommand;
  const prefixed = /^(npm|pypi):(.*)$/s.exec(spec);
  const registry = (prefixed?.[1] as PackageRef['registry'] | undefined) ?? fromCommand[0]?.registry;
  if (!registry) {
    const hint = 'write "npm:<name>" or "pypi:<name>" so that it can be probed';
    reader.warning(packagePath, `package names no registry and the command runs no npx or uvx: ${hint}`);
    return fromCommand;
  }
  const declared = packageRefFromSpec(prefixed?.[2] ?? spec, registry, `package: ${spec}`);
  if (!declared) {
    reader.error(packagePath, `package ${echo(spec)} is not a valid ${registry} package name`);
    return fromCommand;
  }
  const duplicate = fromCommand.some((ref) => ref.registry === declared.registry && ref.name === declared.name);
  return duplicate ? fromCommand : [...fromCommand, declared];
}
