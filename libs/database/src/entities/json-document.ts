/**
 * A JSON object stored in a jsonb column. Typed loosely on purpose: TypeORM's
 * partial-entity types cannot follow `Record<string, unknown>`, and readers check
 * the shape they need where they read it.
 */
export type JsonDocument = object;
