export * from './analysis.types';
export { CodeAnalyzer, loadCodeAnalyzer } from './code-analyzer';
export { classifyFile, extensionOf, type FileKind } from './file-kind';
