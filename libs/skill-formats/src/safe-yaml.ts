/**
 * YAML parsing for untrusted manifests (security check C1): plain YAML 1.2 core data only,
 * every parser complaint is an error, and resource use is bounded before any work is done.
 */
import type { Problem } from '@skillhub/errors';
import {
  isMap,
  isNode,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type DocumentOptions,
  type ParseOptions,
  type SchemaOptions,
  type YAMLError,
} from 'yaml';
import { checkManifestValue, measureYaml, shapeProblem } from './manifest-limits';
import type { FieldPath, ManifestSource } from './manifest-source';
import { indentQuotedContinuations } from './quoted-scalars';
import type { SkillFile } from './skill.model';

/** Largest manifest accepted (a whole `SKILL.md` included); checked before decoding or parsing. */
export const MAX_MANIFEST_BYTES = 256 * 1024;

/** Alias expansions allowed in one document; a "billion laughs" document needs far more. */
export const MAX_YAML_ALIASES = 50;

const YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  schema: 'core',
  customTags: [],
  // Otherwise `!!binary`, `!!set`, `!!timestamp`... from other schemas would still resolve.
  resolveKnownTags: false,
  merge: false,
  uniqueKeys: true,
  // Collection keys (`? [a, b]`) become errors instead of stringified keys.
  stringKeys: true,
  strict: true,
  prettyErrors: false,
  // 'error' keeps the library quiet; 'silent' would also drop the multiple-documents error.
  logLevel: 'error',
};

/** Decodes a manifest file as UTF-8, refusing it when it is too large or not valid UTF-8. */
export function decodeManifestText(file: SkillFile, problems: Problem[]): string | null {
  if (file.content.length > MAX_MANIFEST_BYTES) {
    const size = file.content.length;
    problems.push(fileError(file.path, `Manifest is ${size} bytes; at most ${MAX_MANIFEST_BYTES} are accepted`));
    return null;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file.content);
  } catch {
    problems.push(fileError(file.path, 'Manifest is not valid UTF-8 text'));
    return null;
  }
}

/** A whole YAML manifest file: size and encoding checked, then parsed safely. */
export function readYamlManifest(file: SkillFile, problems: Problem[]): ManifestSource | null {
  const text = decodeManifestText(file, problems);
  return text === null ? null : parseSafeYaml(text, file.path, problems);
}

/**
 * Parses one YAML document whose top level must be a map. `lineOffset` shifts reported lines
 * when the YAML sits inside a larger file (front matter). Returns null when anything is wrong.
 */
export function parseSafeYaml(
  source: string,
  file: string,
  problems: Problem[],
  lineOffset = 0,
): ManifestSource | null {
  // Quoted values read as SwarmKit's PyYAML reads them; lines stay where they are.
  const text = indentQuotedContinuations(source);
  // Measured on the syntax tree first: composing a document this large or deep is the cost refused.
  const tooLarge = shapeProblem(measureYaml(text), file);
  if (tooLarge) {
    problems.push(tooLarge);
    return null;
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...YAML_OPTIONS, lineCounter });
  const lineAt = (offset: number): number => lineCounter.linePos(offset).line + lineOffset;

  // The parser only warns about unknown tags (`!foo`, `!!python/object`); here every complaint is an error.
  const complaints = [...doc.errors, ...doc.warnings];
  for (const complaint of complaints) {
    problems.push(fileError(file, `${describeComplaint(complaint)} (line ${lineAt(complaint.pos[0])})`));
  }
  if (complaints.length > 0) return null;

  const root = expandAliases(doc, file, problems);
  if (root === undefined) return null;
  if (root === null || typeof root !== 'object' || Array.isArray(root)) {
    const got = root === null ? 'nothing' : Array.isArray(root) ? 'a list' : `a ${typeof root}`;
    problems.push(fileError(file, `The top level must be a map of fields, got ${got}`));
    return null;
  }
  const lineOf = (path: FieldPath): number | undefined => nearestLine(doc, path, lineAt);
  if (!checkManifestValue(root, file, problems, lineOf)) return null;
  return { file, root: root as Record<string, unknown>, lineOf };
}

function describeComplaint(complaint: YAMLError): string {
  if (complaint.code === 'TAG_RESOLVE_FAILED') {
    return `YAML tag not allowed (only plain YAML data is accepted): ${complaint.message}`;
  }
  return `Invalid YAML: ${complaint.message}`;
}

/** Alias expansion is capped, so an alias bomb is refused instead of exhausting memory. */
function expandAliases(doc: Document, file: string, problems: Problem[]): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    problems.push(fileError(file, `YAML aliases refused (at most ${MAX_YAML_ALIASES} expansions): ${reason}`));
    return undefined;
  }
}

/** Line of the field's key, or of its closest enclosing entry when the field itself is missing. */
function nearestLine(doc: Document, path: FieldPath, lineAt: (offset: number) => number): number | undefined {
  for (let depth = path.length; depth > 0; depth--) {
    const start = fieldStart(doc, path.slice(0, depth));
    if (start !== undefined) return lineAt(start);
  }
  return undefined;
}

/** Where a map entry's key or a list item begins: the line a reader looks for. */
function fieldStart(doc: Document, path: FieldPath): number | undefined {
  const parent: unknown = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1));
  const step = path[path.length - 1];
  const node: unknown = isMap(parent)
    ? parent.items.find((pair) => isScalar(pair.key) && pair.key.value === step)?.key
    : isSeq(parent) && typeof step === 'number'
      ? parent.items[step]
      : undefined;
  return isNode(node) ? node.range?.[0] : undefined;
}

function fileError(file: string, message: string): Problem {
  return { path: file, message, severity: 'error' };
}
