/**
 * The CPU-bound half of publish, validate and submit: a bundle read (gunzip, tar, every limit) and
 * its manifest parsed, or a submitted manifest parsed. These run in the inspector's worker threads,
 * so what they return is plain data: a domain error crosses as its kind, code, message and problems.
 */
import * as semver from 'semver';
import { readBundle, writeBundle, type Bundle, type BundleFile, type BundleLimits } from '@skillhub/bundle';
import { DomainError, hasErrors, type ErrorKind, type Problem } from '@skillhub/errors';
import {
  parseKazmaManifestObject,
  parseSkill,
  type NormalizedSkill,
  type ParseContext,
  type ParseResult,
  workspaceSkills,
} from '@skillhub/skill-formats';
import { InvalidManifestError } from './skills.errors';

/** A bundle as the hub keeps it after reading: every file's digest, no contents. */
export type BundleSummary = Omit<Bundle, 'files'> & { files: Array<Omit<BundleFile, 'content'>> };

export interface InspectedSkill {
  skill: NormalizedSkill;
  warnings: Problem[];
}

export interface InspectedBundle extends InspectedSkill {
  bundle: BundleSummary;
  /** The bytes stored for this skill when they are not the upload's: one skill of a workspace. */
  bytes?: Uint8Array;
}

export interface BundleTask {
  bytes: Uint8Array;
  limits: Omit<BundleLimits, 'maxPathBytes'>;
  /** What the request says; the folder name is the bundle's own. */
  context: Omit<ParseContext, 'folderName'>;
}

export interface CrossingError {
  kind: ErrorKind;
  code: string;
  message: string;
  problems: readonly Problem[];
  details: Readonly<Record<string, unknown>>;
}

export type Inspection<T> = { ok: true; value: T } | { ok: false; error: CrossingError };

/** One bundle per skill of a workspace is written on publish: speed over the last 1 % of size. */
const WORKSPACE_GZIP_LEVEL = 6;

/** Versions live in int4 columns (major, minor, patch), which order them. */
const INT4_MAX = 2 ** 31 - 1;

/**
 * The bundle read and its skill parsed; a SwarmKit workspace (skills under `skills/`) gives one
 * inspected bundle per skill, each written as its own bundle. Every problem of every skill is
 * reported at once, each under the path of the skill it is about.
 */
export function inspectBundle(task: BundleTask): Inspection<InspectedBundle[]> {
  return crossing(() => {
    const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
    const { files, ...bundle } = readBundle(bytes, task.limits);
    const workspace = workspaceSkills(files);
    if (workspace === null) return [inspectSkill(files, bundle, task.context)];
    if (!workspace.ok) throw new InvalidManifestError([workspace.problem]);
    const inspected: InspectedBundle[] = [];
    const problems: Problem[] = [];
    for (const { skillPath, files: own } of workspace.skills) {
      const written = writeBundle(own, { rootFolder: bundle.rootFolder, level: WORKSPACE_GZIP_LEVEL });
      const { files: read, ...summary } = readBundle(written, task.limits);
      try {
        inspected.push({ ...inspectSkill(read, summary, task.context), bytes: written });
      } catch (error) {
        if (!(error instanceof InvalidManifestError)) throw error;
        problems.push(...error.problems.map((problem) => ({ ...problem, path: `${skillPath}: ${problem.path}` })));
      }
    }
    if (problems.length > 0) throw new InvalidManifestError(problems);
    return inspected;
  });
}

function inspectSkill(
  files: readonly BundleFile[],
  bundle: Omit<Bundle, 'files'>,
  context: BundleTask['context'],
): InspectedBundle {
  const parsed = parseSkill(files, { ...context, folderName: bundle.rootFolder });
  if (parsed.skill && context.version !== undefined && context.version !== parsed.skill.version) {
    parsed.problems.push({
      path: 'version',
      message: `the request says version ${context.version} but the manifest says ${parsed.skill.version}`,
      severity: 'error',
    });
  }
  const inspected = accepted(parsed);
  return { ...inspected, bundle: { ...bundle, files: files.map(({ content: _, ...file }) => file) } };
}

/** Kazma's `hub submit`: a manifest received as JSON, with no files. */
export function inspectManifest(manifest: unknown): Inspection<InspectedSkill> {
  return crossing(() => accepted(parseKazmaManifestObject(manifest)));
}

/** The error a crossing carries, rebuilt on the calling side (statuses follow its kind). */
export function rebuildError(error: CrossingError): DomainError {
  return new DomainError(error.kind, error.code, error.message, error.problems, error.details);
}

function accepted({ skill, problems }: ParseResult): InspectedSkill {
  if (skill) problems.push(...versionProblems(skill.version));
  if (!skill || hasErrors(problems)) throw new InvalidManifestError(problems);
  return { skill, warnings: problems };
}

/** A version the formats accept may still not fit the columns that order versions. */
function versionProblems(version: string): Problem[] {
  // semver refuses numbers past 2^53 (null here); the columns refuse those past int4.
  const parsed = semver.parse(version);
  if (parsed && [parsed.major, parsed.minor, parsed.patch].every((n) => n <= INT4_MAX)) return [];
  const message = `version ${version}: each of its three numbers must be at most ${INT4_MAX}`;
  return [{ path: 'version', message, severity: 'error' }];
}

/** Domain errors become data; anything else is a defect and stays an error (the caller's 500). */
function crossing<T>(work: () => T): Inspection<T> {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const { kind, code, message, problems, details } = error;
    return { ok: false, error: { kind, code, message, problems, details } };
  }
}
