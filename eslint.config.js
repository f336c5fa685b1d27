import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Note [Layering by imports]: DESIGN.md's layering, enforced. `tensor` knows nothing of autograd,
// `autograd` nothing of RPC or nn, `rpc` nothing of autograd; only dist-autograd ties the engine
// to the wire. FORBIDDEN[p] lists the workspace packages that files under packages/p may not import
// (by name or subpath, type-only imports and re-exports included). test-helpers imports none of
// the packages whose specs use it: they devDepend on it, so that would be a cycle.
const FORBIDDEN = {
  tensor: ['autograd', 'nn', 'rpc', 'dist-autograd', 'distributed'],
  autograd: ['nn', 'rpc', 'dist-autograd', 'distributed'],
  rpc: ['autograd', 'nn', 'dist-autograd', 'distributed'],
  nn: ['rpc', 'dist-autograd', 'distributed'],
  'test-helpers': ['autograd', 'nn', 'rpc', 'dist-autograd', 'distributed'],
  // distributed sits on autograd, nn and rpc's transport; nothing below imports it
  distributed: ['dist-autograd'],
};
const WORKSPACE = [
  'tensor',
  'autograd',
  'nn',
  'rpc',
  'dist-autograd',
  'distributed',
  'test-helpers',
  'consumer-tests',
  'demo',
];

/** Everywhere: packages meet through their names and `exports`, never through each other's folders. */
const EVERYWHERE = [
  {
    regex: '(^|/)src/__tests__(/|$)',
    message:
      "Another package's src/__tests__ is private to its specs: put what specs share in @wiregrad/test-helpers and import it by name.",
  },
  {
    regex: `^(\\.\\./)+(packages/|apps/)?(${WORKSPACE.join('|')})/`,
    message: 'Import a workspace package by its name (its `exports`), not by a relative path into its folder.',
  },
  {
    group: ['@wiregrad/*/src', '@wiregrad/*/src/**', '@wiregrad/*/dist', '@wiregrad/*/dist/**'],
    message:
      'Import a workspace package through its `exports` (@wiregrad/x or a subpath it exports), not its src/ or dist/ files.',
  },
];

const layering = (pkg, forbidden, files = [`packages/${pkg}/**`]) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          ...EVERYWHERE,
          ...forbidden.map((other) => ({
            group: [`@wiregrad/${other}`, `@wiregrad/${other}/**`],
            message: `@wiregrad/${pkg} may not import @wiregrad/${other}: see Note [Layering by imports] in eslint.config.js (DESIGN.md's layering).`,
          })),
        ],
      },
    ],
  },
});

export default tseslint.config(
  {
    ignores: [
      '**/*.generated.ts',
      'packages/tensor/assembly/**',
      '**/dist/**',
      '**/node_modules/**',
      '**/.turbo/**',
      'apps/demo/out/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
      'no-restricted-imports': ['error', { patterns: EVERYWHERE }],
    },
  },
  ...Object.entries(FORBIDDEN).map(([pkg, forbidden]) => layering(pkg, forbidden)),
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/*.test.ts', 'bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
