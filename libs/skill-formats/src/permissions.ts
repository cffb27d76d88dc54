/**
 * The permission vocabulary every format declares into: Kazma's names plus the two the hub adds,
 * because Kazma has none for running programs or reading the environment.
 */
import { echo, type FieldReader } from './field.reader';
import type { FieldPath } from './manifest-source';

/** Permissions Kazma knows; its readiness check takes 5 points off for each other one. */
export const KAZMA_PERMISSIONS = [
  'file_read',
  'file_write',
  'network_outbound',
  'network_inbound',
  'camera_access',
  'mqtt_broker',
  'database_read',
  'database_write',
] as const;

/** The hub's additions: `process_exec` (runs programs), `env_read` (reads environment variables). */
export const HUB_PERMISSIONS = ['process_exec', 'env_read'] as const;

export const KNOWN_PERMISSIONS: readonly string[] = [...KAZMA_PERMISSIONS, ...HUB_PERMISSIONS];

/** Longest permission name read; longer ones are refused before anything else looks at them. */
export const PERMISSION_MAX = 64;

/**
 * Warns once per permission outside the vocabulary. The message starts with "Unknown permission":
 * C1 (libs/certification manifest.check.ts) recognises Kazma's score deduction by that prefix.
 */
export function warnUnknownPermissions(reader: FieldReader, path: FieldPath, permissions: readonly string[]): void {
  for (const permission of permissions.filter((name) => !KNOWN_PERMISSIONS.includes(name))) {
    reader.warning(path, `Unknown permission ${echo(permission)} (Kazma takes 5 points off its score for each)`);
  }
}

/** `names` in first-seen order without repeats. */
export function uniqueNames(names: readonly string[]): string[] {
  return [...new Set(names)];
}
