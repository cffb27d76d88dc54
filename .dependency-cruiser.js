// Boundaries (docs/conventions.md, docs/architecture.md): apps never import each other, libs never import
// apps, and the pure libs stay free of Nest, TypeORM and HTTP code.
const PURE_LIBS = '^libs/(skill-formats|bundle|signing|gate|errors|search|certification|code-analysis|text-analysis)/';
// Specs and test support: they run under jest, where the devDependencies are installed.
const TEST_SIDE = [
  '\\.(int-|e2e-)?spec\\.ts$',
  '(^|/)testing/',
  '^libs/testing/',
  // The worker entry used only when hub-api runs from its sources (the tests); dist/ never loads it.
  '^apps/hub-api/src/common/typescript-worker\\.js$',
];
const FRAMEWORK = '^(node_modules/)?(@nestjs|typeorm|pg|express|bullmq|ioredis|axios|undici|supertest)(/|$)';

module.exports = {
  forbidden: [
    {
      name: 'app-imports-other-app',
      severity: 'error',
      comment: 'An app never imports another app; move the shared piece into libs/.',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/([^/]+)/', pathNot: '^apps/$1/' },
    },
    {
      name: 'lib-imports-app',
      severity: 'error',
      comment: 'A lib never imports an app.',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'pure-lib-imports-framework',
      severity: 'error',
      comment:
        'skill-formats, bundle, signing, gate, errors, search and certification import no Nest, TypeORM or HTTP code.',
      from: { path: PURE_LIBS },
      to: { path: FRAMEWORK },
    },
    {
      name: 'pure-lib-imports-impure-lib',
      severity: 'error',
      comment: 'A pure lib may import only other pure libs.',
      from: { path: PURE_LIBS },
      // probe-result.ts holds only the types of a probe's answer, which the pure checks read.
      to: { path: '^libs/', pathNot: [PURE_LIBS, '^libs/package-probe/src/probe-result\\.ts$'] },
    },
    {
      name: 'pure-lib-uses-network',
      severity: 'error',
      comment: 'Pure libs do no I/O of their own.',
      from: { path: PURE_LIBS, pathNot: '\\.spec\\.ts$' },
      to: { dependencyTypes: ['core'], path: '^(http|https|net|tls|dgram|child_process)$' },
    },
    {
      name: 'runtime-imports-migration',
      severity: 'error',
      comment:
        'Migrations are frozen and run once; only the data source lists them. Shared code lives in libs/database proper.',
      from: { pathNot: ['^libs/database/src/(data-source\\.ts|migrations/)', '\\.(int-)?spec\\.ts$'] },
      to: { path: '^libs/database/src/migrations/' },
    },
    {
      name: 'trust-imports-certifier',
      severity: 'error',
      comment:
        "libs/trust (keys, log, revocations) is what the certifier signs with; it never depends on the certifier's judging.",
      from: { path: '^libs/trust/' },
      to: { path: '^libs/certifier/' },
    },
    {
      name: 'not-to-spec',
      severity: 'error',
      comment: 'Nothing imports a spec: what two specs share is test support, in a testing/ folder.',
      from: {},
      to: { path: '\\.(int-|e2e-)?spec\\.ts$' },
    },
    {
      name: 'not-to-dev-dep',
      severity: 'error',
      comment:
        "Shipped code imports only the root package.json's dependencies: a devDependency is not installed in production.",
      from: { path: '^(apps|libs)/', pathNot: TEST_SIDE },
      to: {
        dependencyTypes: ['npm-dev'],
        // Types vanish at build time; @types/* packages hold nothing else.
        dependencyTypesNot: ['type-only'],
        pathNot: [
          '^node_modules/@types/',
          // express ships with @nestjs/platform-express, which pins the version it runs on; only its
          // types (@types/express) are ours to declare, and they make dependency-cruiser call it a dev one.
          '^node_modules/express/',
        ],
      },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'A module that imports nothing and that nothing imports is dead code (no file of this tree needs an exception).',
      from: { orphan: true },
      to: {},
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '(^|/)dist/' },
  },
};
