/** A manifest's field read as a map: the object itself, or {} for anything else (the manifest was verified, not typed). */
export const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
