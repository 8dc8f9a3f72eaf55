import { defineConfig } from 'vitest/config';

// Benchmarks in a real n8n, run by vitest for its TypeScript loading: the real-n8n half of
// `npm run bench:trigger`, `npm run bench:flood`, `npm run bench:queue-pacing`, `npm run bench:trigger-versions` and `npm run bench:keep-new`, each naming its file;
// test/e2e/poll-overlap.measure.mts (the poll e2e set-up, so it lives beside it) is run by the command in its header.
export default defineConfig({
	test: {
		include: ['bench/flood-n8n.mts', 'bench/trigger-n8n.mts', 'bench/trigger-vs-webhook.mts', 'bench/queue-pacing.mts', 'bench/trigger-versions-n8n.mts', 'bench/keep-new-n8n.mts', 'test/e2e/poll-overlap.measure.mts'],
		testTimeout: 900_000,
		hookTimeout: 1_200_000,
		fileParallelism: false,
	},
});
