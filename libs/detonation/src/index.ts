/** Detonation (C16's evidence): what a skill would run, run in the sandbox with honeytokens and traced. */
export {
  DETONATION_DEFAULTS,
  DETONATION_LIMITS,
  DETONATION_SKILL_MOUNT,
  createDetonator,
  detonate,
  detonationAvailable,
  type DetonateOptions,
  type DetonationAvailability,
  type Detonator,
} from './detonate';
export { planDetonation, schemaArguments, type DetonationPlan, type PlannedRun } from './detonation-plan';
export { shellBlocks, type ShellBlock } from './code-blocks';
export { HONEYTOKEN_VARIABLES, plantHoneytokens, type Honeytokens } from './honeytokens';
export { TRACED_CALLS, TraceEvents, type TraceContext } from './trace-events';
