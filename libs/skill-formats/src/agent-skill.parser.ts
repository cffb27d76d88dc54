/**
 * Agent Skills (agentskills.io): `SKILL.md`, YAML front matter then instructions (docs/formats.md).
 * The format has no author and no version; both come from the publish request. It has no permission
 * field either: the hub reads `metadata.permissions` (metadata is a string→string map), one string of
 * permission names separated by spaces or commas, e.g. `permissions: "process_exec network_outbound"`.
 * `allowed-tools` names tools the agent may use without asking; those are not permissions.
 */
import { hasErrors, type Problem } from '@skillhub/errors';
import { echo, FieldReader } from './field.reader';
import { publisherFromContext, requestError, STRICT_VERSION, VERSION_RULE } from './manifest-rules';
import { PERMISSION_MAX, uniqueNames, warnUnknownPermissions } from './permissions';
import { decodeManifestText, MAX_MANIFEST_BYTES, parseSafeYaml } from './safe-yaml';
import type { ParseContext, ParseResult, SkillFile } from './skill.model';
import { lineOfIndex, scanText } from './text-hygiene';

const KNOWN_FIELDS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];

/** Each name rule is reported on its own, so a publisher sees every one a name breaks. */
const NAME_RULES: readonly { holds: (name: string) => boolean; message: string }[] = [
  { holds: (name) => /^[a-z0-9-]*$/.test(name), message: 'may only contain lowercase letters, digits and "-"' },
  { holds: (name) => !name.startsWith('-') && !name.endsWith('-'), message: 'must not start or end with "-"' },
  { holds: (name) => !name.includes('--'), message: 'must not contain "--"' },
];

const FRONT_MATTER_FENCE = '---';

export interface SkillDocument {
  frontMatter: string;
  instructions: string;
  /** Line of the file on which the instructions start. */
  instructionsLine: number;
}

export function parseAgentSkill(manifestFile: SkillFile, context: ParseContext): ParseResult {
  const problems: Problem[] = [];
  const publisher = publisherFromContext(context, 'Agent Skills', problems);
  const version = versionFromContext(context, problems);
  const document = readSkillDocument(manifestFile, problems);
  // The front matter starts on the file's second line, after the opening fence.
  const source = document && parseSafeYaml(document.frontMatter, manifestFile.path, problems, 1);
  if (!document || !source) return { skill: null, problems };

  const reader = new FieldReader(source, problems);
  reader.onlyKeys([], KNOWN_FIELDS, 'warning');
  const name = readName(reader, context.folderName ?? null);
  const description = reader.string(['description'], { max: 1024, required: true });
  if (description !== null) reader.checkText(['description'], description);
  const license = reader.string(['license'], { max: 128 });
  reader.string(['compatibility'], { max: 500 });
  const permissions = readPermissions(reader);
  checkAllowedTools(reader);
  checkInstructions(document, manifestFile.path, problems);

  if (hasErrors(problems) || !publisher || !version || name === null || description === null) {
    return { skill: null, problems };
  }
  return {
    skill: {
      format: 'agent-skill',
      ...publisher,
      name,
      version,
      description,
      license,
      category: null,
      capabilities: [],
      permissions,
      scopes: [],
      tags: [],
      tools: [],
      mcpServers: [],
      serverUses: [],
      commands: [],
      entryPoint: null,
      manifestPath: source.file,
      homepage: null,
      repository: null,
      manifest: source.root,
    },
    problems,
  };
}

function readSkillDocument(file: SkillFile, problems: Problem[]): SkillDocument | null {
  const text = decodeManifestText(file, problems);
  if (text === null) return null;
  const document = splitFrontMatter(text);
  if (!document) {
    const message = `${file.path} must start with YAML front matter between two "${FRONT_MATTER_FENCE}" lines`;
    problems.push({ path: file.path, message, severity: 'error' });
  }
  return document;
}

/** Front matter between a first line `---` and the next `---` line; the rest is the instructions. */
export function splitFrontMatter(text: string): SkillDocument | null {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trimEnd() !== FRONT_MATTER_FENCE) return null;
  const end = lines.findIndex((line, index) => index > 0 && line.trimEnd() === FRONT_MATTER_FENCE);
  if (end === -1) return null;
  return {
    frontMatter: lines.slice(1, end).join('\n'),
    instructions: lines.slice(end + 1).join('\n'),
    instructionsLine: end + 2,
  };
}

function readName(reader: FieldReader, folderName: string | null): string | null {
  const name = reader.string(['name'], { max: 64, required: true });
  if (name === null) return null;
  const broken = NAME_RULES.filter((rule) => !rule.holds(name));
  for (const rule of broken) reader.error(['name'], `name ${echo(name)} ${rule.message}`);
  if (folderName && name !== folderName) {
    reader.error(['name'], `name ${echo(name)} must equal the skill's folder name ${echo(folderName)}`);
    return null;
  }
  return broken.length === 0 ? name : null;
}

/**
 * `metadata` maps strings to strings; another value (`version: 1.0` unquoted) breaks the spec but
 * harms nothing, so it is a warning. Its `permissions` entry declares the skill's permissions.
 */
function readPermissions(reader: FieldReader): string[] {
  const metadata = reader.stringMap(['metadata'], { value: { max: MAX_MANIFEST_BYTES, min: 0 }, nonString: 'warning' });
  const path = ['metadata', 'permissions'];
  const names = uniqueNames((metadata['permissions'] ?? '').split(/[\s,]+/).filter((name) => name !== ''));
  const tooLong = names.filter((name) => name.length > PERMISSION_MAX);
  for (const name of tooLong) {
    reader.error(path, `Permission ${echo(name)} is longer than ${PERMISSION_MAX} characters`);
  }
  const permissions = names.filter((name) => !tooLong.includes(name));
  warnUnknownPermissions(reader, path, permissions);
  return permissions;
}

/** `allowed-tools`: one space-separated string (the spec), or a list (as some agents accept). */
function checkAllowedTools(reader: FieldReader): void {
  const path = ['allowed-tools'];
  const value = reader.either(path, ['string', 'list']);
  if (Array.isArray(value)) reader.stringList(path, { max: 256 });
  else if (typeof value === 'string') reader.string(path, { max: 4096, min: 0 });
}

function checkInstructions(document: SkillDocument, file: string, problems: Problem[]): void {
  if (document.instructions.trim() === '') {
    problems.push({ path: file, message: `${file} has no instructions after its front matter`, severity: 'warning' });
  }
  for (const finding of scanText(document.instructions)) {
    const line = document.instructionsLine + lineOfIndex(document.instructions, finding.index) - 1;
    problems.push({
      path: file,
      message: `The body of ${file} ${finding.message} (line ${line})`,
      severity: finding.severity,
    });
  }
}

/** Agent Skills carry no version: the publish request gives it. */
function versionFromContext(context: ParseContext, problems: Problem[]): string | null {
  const version = context.version;
  if (version === undefined || version === '') {
    problems.push(requestError('version', 'Agent Skills carry no version: pass ?version=X.Y.Z'));
    return null;
  }
  if (version.length > VERSION_RULE.max || !STRICT_VERSION.test(version)) {
    problems.push(requestError('version', `Version ${echo(version)} must be ${VERSION_RULE.patternHint}`));
    return null;
  }
  return version;
}
