import { defineConfig } from 'vitest/config';

// End-to-end: a real n8n (from the cache, installed on first use) with the
// packed package, against the standalone mock over real HTTP. Slow by nature.
export default defineConfig({
	test: {
		include: ['test/e2e/**/*.e2e.test.mts'],
		// Redis, Postgres and Chromium first: a missing one is named with its install command.
		globalSetup: ['test/e2e/system-packages.setup.mts'],
		testTimeout: 300_000,
		hookTimeout: 1_200_000,
		fileParallelism: false,
	},
});
