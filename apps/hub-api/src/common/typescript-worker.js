/**
 * The entry of a pool's worker thread when hub-api runs from its TypeScript sources (the tests run
 * it so): it compiles each `.ts` file as it is required, resolves tsconfig.json's `@skillhub/*`
 * paths, then exports the module the pool named. Built hub-api (dist/) never loads this file.
 */
'use strict';
const Module = require('node:module');
const { existsSync, readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { workerData } = require('piscina');
const ts = require('typescript');

function repositoryRoot(from) {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'tsconfig.json'))) return dir;
  }
  throw new Error(`no tsconfig.json above ${from}`);
}

const root = repositoryRoot(__dirname);
const { config } = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
const aliases = new Map(
  Object.entries(config.compilerOptions.paths).map(([alias, [target]]) => [alias, join(root, target)]),
);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, aliases.get(request) ?? request, ...rest);
};

const compilerOptions = {
  module: ts.ModuleKind.CommonJS,
  target: ts.ScriptTarget.ES2022,
  esModuleInterop: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
};
Module._extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), { fileName: filename, compilerOptions });
  module._compile(outputText, filename);
};

module.exports = require(workerData.typescriptModule);
