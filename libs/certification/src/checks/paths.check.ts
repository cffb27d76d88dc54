/**
 * C2 paths, re-checked although the bundle reader already refuses unsafe entries: a bundle can
 * reach the certifier by another road (a re-certification of stored files), and the entry point
 * comes from the manifest, not from the archive.
 */
import type { Bundle } from '@skillhub/bundle';
import type { NormalizedSkill } from '@skillhub/skill-formats';
import type { Check } from '../check';
import { newFinding, type Finding } from '../finding';

export const pathsCheck: Check = {
  id: 'C2',
  decides: ['paths_safe', 'entry_point_exists'],
  appliesToManifestOnly: false,
  run(input) {
    const { bundle, skill } = input;
    const pathFindings = [...bundle.files.flatMap((file) => unsafePathFindings(file.path)), ...collisions(bundle)];
    const entry = skill ? entryPointFindings(skill, bundle) : null;
    const findings = [...pathFindings, ...(entry ?? [])];
    return {
      findings,
      // Without a parsed manifest nothing says what the entry point is, so it cannot be shown to exist.
      requirements: { paths_safe: findings.length === 0, entry_point_exists: entry !== null && entry.length === 0 },
    };
  },
};

/** Every rule a path inside the bundle breaks (docs/security.md, C2). */
export function pathViolations(path: string): string[] {
  if (path === '') return ['it is empty'];
  const violations: string[] = [];
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) violations.push('it contains a NUL or control character');
  if (path.includes('\\')) violations.push('it contains a backslash');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) violations.push('it is absolute');
  const segments = path.split('/');
  if (segments.includes('..')) violations.push("it contains a '..' segment");
  if (segments.some((segment) => segment === '' || segment === '.')) {
    violations.push("it contains an empty or '.' segment");
  }
  if (path !== path.normalize('NFC')) violations.push('it is not in Unicode NFC form');
  return violations;
}

function unsafePathFindings(path: string): Finding[] {
  return pathViolations(path).map((violation) =>
    newFinding({
      check: 'C2',
      code: 'unsafe-path',
      severity: 'high',
      file: displayPath(path),
      message: `The bundle path is unsafe: ${violation}.`,
      fixHint: 'Rebuild the bundle from a plain folder: relative names, forward slashes, no links and no "..".',
    }),
  );
}

/** Names that would land on the same place on a case-insensitive or normalizing file system, or a file that is also a folder. */
function collisions(bundle: Bundle): Finding[] {
  const seen = new Map<string, { path: string; kind: 'file' | 'folder' }>();
  const reported = new Set<string>();
  const findings: Finding[] = [];
  const register = (path: string, kind: 'file' | 'folder'): void => {
    const key = foldKey(path);
    const existing = seen.get(key);
    if (!existing) {
      seen.set(key, { path, kind });
    } else if ((existing.path !== path || existing.kind !== kind || kind === 'file') && !reported.has(path)) {
      // A folder implied by many files clashes once, not once per file.
      reported.add(path);
      findings.push(collision(path, existing.path));
    }
  };
  for (const { path } of bundle.files) {
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth++) register(segments.slice(0, depth).join('/'), 'folder');
    register(path, 'file');
  }
  return findings;
}

const foldKey = (path: string): string => path.normalize('NFC').toLowerCase();

function collision(path: string, other: string): Finding {
  const what =
    path === other ? 'is both a file and a folder, or appears twice' : `collides with '${displayPath(other)}'`;
  return newFinding({
    check: 'C2',
    code: 'path-collision',
    severity: 'high',
    file: displayPath(path),
    message: `The bundle path ${what} once case and Unicode normalization are folded.`,
    fixHint: 'Rename one of the two so that the names differ in more than letter case or Unicode form.',
  });
}

/**
 * Kazma: a declared entry point must be a safe relative path of a file in the bundle; none
 * declared is met, as in Kazma's check-certification (C3 then reports the skill unsigned). Other
 * formats have no entry point: the manifest an agent loads plays its part.
 */
function entryPointFindings(skill: NormalizedSkill, bundle: Bundle): Finding[] {
  const has = (path: string): boolean => bundle.files.some((file) => file.path === path);
  if (skill.format !== 'kazma') {
    if (has(skill.manifestPath)) return [];
    return [
      entryFinding(
        'manifest-missing',
        skill.manifestPath,
        'The manifest the skill was parsed from is not in the bundle.',
        'Publish the bundle the manifest came from, with the manifest at its root.',
      ),
    ];
  }
  const entryPoint = skill.entryPoint;
  if (entryPoint === null) return [];
  const violations = pathViolations(entryPoint);
  if (violations.length > 0) {
    const message = `The entry point '${displayPath(entryPoint)}' is unsafe: ${violations.join('; ')}.`;
    return [entryFinding('entry-point-unsafe', skill.manifestPath, message)];
  }
  if (!has(entryPoint)) {
    return [
      entryFinding('entry-point-missing', skill.manifestPath, `The entry point '${entryPoint}' is not in the bundle.`),
    ];
  }
  return [];
}

const ENTRY_POINT_HINT =
  'Set entry_point to the Python module beside the manifest (`my_skill`, `my_skill.py` or `my_skill:Class`) and ship that file.';

function entryFinding(code: string, file: string, message: string, fixHint = ENTRY_POINT_HINT): Finding {
  return newFinding({ check: 'C2', code, severity: 'high', file: displayPath(file), message, fixHint });
}

/** Control characters escaped, so a hostile path is safe to show and to store as JSON. */
const displayPath = (path: string): string =>
  // eslint-disable-next-line no-control-regex
  path.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
