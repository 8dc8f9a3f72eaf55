import { defineConfig } from 'vitest/config';

// The real-n8n half of `npm run bench:trigger` (scripts/bench-trigger-n8n.ts).
export default defineConfig({
	test: {
		include: ['scripts/bench-trigger-n8n.ts'],
		testTimeout: 900_000,
		hookTimeout: 1_200_000,
		fileParallelism: false,
	},
});
