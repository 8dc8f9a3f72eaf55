import { defineConfig } from 'vitest/config';

// Benchmarks in a real n8n, run by vitest for its TypeScript loading: the real-n8n half of
// `npm run bench:trigger`, `npm run bench:flood`, `npm run bench:queue-pacing`, `npm run bench:trigger-versions` and `npm run bench:keep-new`, each naming its file;
// bench/poll-overlap-n8n.mts is run by its own command (in its header).
export default defineConfig({
	test: {
		include: ['bench/flood-n8n.mts', 'bench/trigger-n8n.mts', 'bench/trigger-vs-webhook.mts', 'bench/queue-pacing.mts', 'bench/trigger-versions-n8n.mts', 'bench/keep-new-n8n.mts', 'bench/poll-overlap-n8n.mts'],
		testTimeout: 900_000,
		hookTimeout: 1_200_000,
		fileParallelism: false,
	},
});
