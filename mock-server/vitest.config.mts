import { defineConfig } from 'vitest/config';

// The mock's own tests: `npm test -w mock-server` (the root's `npm test` runs them too).
export default defineConfig({
	test: {
		include: ['test/**/*.test.mts'],
		testTimeout: 30_000,
		hookTimeout: 60_000,
	},
});
