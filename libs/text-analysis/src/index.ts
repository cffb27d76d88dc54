export {
  HIDDEN_KIND_NAMES,
  codePointLabel,
  describeHiddenText,
  findHiddenText,
  isInvisible,
  type HiddenKind,
  type HiddenText,
  type HiddenTextOptions,
} from './hidden-text';
export { normalizeText, sourceSpan, type NormalizedText } from './normalize';
export {
  findInjections,
  type InjectionFinding,
  type InjectionOptions,
  type InjectionRule,
  type ToolContext,
} from './injection';
export { findHiddenMarkdown, type HiddenMarkdown, type HiddenMarkdownKind } from './markdown-hidden';
export {
  compareNames,
  editDistance,
  mixedScript,
  plainName,
  skeleton,
  type MixedScript,
  type NameComparison,
  type NameLikeness,
} from './names';
export { escapeForDisplay, excerptAt, quoteForMessage, type DisplayOptions } from './display';
export { findConcealedPayloads, type ConcealedPayload } from './concealed-payload';
