// Three tiers in one run: unit (*.spec.ts, pure), integration (*.int-spec.ts, real
// PostgreSQL and Redis) and e2e (test/*.e2e-spec.ts, over HTTP). `npm test` runs all.
const { availableParallelism } = require('node:os');
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  rootDir: __dirname,
};

module.exports = {
  // Most suites wait on hubs, queues and timers rather than compute, so two workers even on a
  // two-core machine (jest's default there is one): the full run took 721 s instead of 1,135 s.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // A global option (projects ignore it): hooks that start an embedded database or a hub need more than 5 s on a busy machine.
  testTimeout: 60_000,
  // What a test could not shut down (test/support/test-hub.ts, CLOSE_WITHIN_MS) must not keep
  // jest from exiting once every test has run.
  forceExit: true,
  transform: shared.transform,
  globalSetup: '<rootDir>/libs/testing/src/jest-global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/jest-global-teardown.ts',
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    { ...shared, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs}/**/*.int-spec.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};
