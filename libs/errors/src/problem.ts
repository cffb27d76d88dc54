/** One thing wrong with an input, reported with every other one (never just the first). */
export interface Problem {
  /** Where: a file path inside a bundle, a dotted field path (`metadata.id`), or both (`skill_manifest.yaml#version`). */
  path: string;
  message: string;
  severity: 'error' | 'warning';
}

export const hasErrors = (problems: readonly Problem[]): boolean => problems.some((p) => p.severity === 'error');
