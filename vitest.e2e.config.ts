import { defineConfig } from 'vitest/config';

// End-to-end: a real n8n (from the cache, installed on first use) with the
// packed package, against the standalone mock over real HTTP. Slow by nature.
export default defineConfig({
	test: {
		include: ['test/e2e/**/*.e2e.test.ts'],
		testTimeout: 300_000,
		hookTimeout: 1_200_000,
		fileParallelism: false,
	},
});
