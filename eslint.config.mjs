import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', 'apps/*/one-process/**', '**/generated/**', '**/node_modules/**', '**/.nx/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  {
    // Tests read JSON answers field by field; typing every answer would only restate the contract.
    files: ['e2e/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Secrets are compared through one helper, which also hides their lengths.
    files: ['**/*.ts'],
    ignores: ['libs/platform/src/crypto/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ['node:crypto', 'crypto'].map((name) => ({ name, importNames: ['timingSafeEqual'], message: 'Use constantTimeEqual from @smsq/platform.' })) },
      ],
    },
  },
  {
    // Test configuration imports the workspace's shared test setup, which belongs to no project.
    files: ['**/vitest.config.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
);
