/** Reads fields of untrusted registry JSON without trusting its shape or its prototype chain. */
export type JsonRecord = Record<string, unknown>;

export const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An own property only: a name like `constructor` or `__proto__` must not reach Object.prototype. */
export const field = (record: JsonRecord | null, key: string): unknown =>
  record !== null && Object.hasOwn(record, key) ? record[key] : undefined;

export const recordField = (record: JsonRecord | null, key: string): JsonRecord | null => {
  const value = field(record, key);
  return isRecord(value) ? value : null;
};

export const stringField = (record: JsonRecord | null, key: string): string | null => {
  const value = field(record, key);
  return typeof value === 'string' ? value : null;
};

export const recordsField = (record: JsonRecord | null, key: string): JsonRecord[] => {
  const value = field(record, key);
  return Array.isArray(value) ? value.filter(isRecord) : [];
};
