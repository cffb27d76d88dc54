/** Test support for probers and certifiers: a local npm and PyPI answering from fixtures. */
export * from './fake-registry.server';
export * from './registry-fixtures';
export * from './packed-packages';
export * from './synthetic-mcp-server';
export * from './python-wheels';
