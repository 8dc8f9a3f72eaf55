import { defineConfig } from 'vitest/config';

// The package's tests (test/) and the mock's (mock-server/test/), in one run.
export default defineConfig({
	test: {
		include: ['test/**/*.test.mts', 'mock-server/test/**/*.test.mts'],
		exclude: ['test/e2e/**', 'node_modules/**'],
		testTimeout: 30_000,
		hookTimeout: 60_000,
	},
});
