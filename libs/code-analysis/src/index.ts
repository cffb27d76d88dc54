export * from './analysis.types';
export { CodeAnalyzer, loadCodeAnalyzer } from './code-analyzer';
export { classifyFile, extensionOf, type FileKind } from './file-kind';
export { embeddedCode, type EmbeddedCode, type EmbeddedRole } from './embedded-code';
export { persistenceIn } from './persistence-paths';
export { fileRunBy, filesRunIn, interpreterLanguage, type RanFile } from './ran-files';
export type { LocalModules } from './javascript-modules';
