// Boundaries (conventions.md §10): apps never import each other, libs never import
// apps, and the pure libs stay free of Nest, TypeORM and HTTP code.
const PURE_LIBS = '^libs/(skill-formats|bundle|signing|gate|errors|search|certification|code-analysis|text-analysis)/';
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
      comment: 'skill-formats, bundle, signing, gate, errors, search and certification import no Nest, TypeORM or HTTP code.',
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
