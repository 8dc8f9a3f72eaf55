import { defineConfig } from 'vitest/config';

// The package's tests (test/) and the mock's (mock-server/test/), in one run.
export default defineConfig({
	test: {
		include: ['test/**/*.test.mts', 'mock-server/test/**/*.test.mts'],
		exclude: ['test/e2e/**', 'node_modules/**'],
		// vitest's default is one worker fewer than the cores: one on a 2-core machine, where many files mostly wait (real
		// sockets, child processes, Chromium) and the other core would sit idle.
		maxWorkers: 2,
		// One worker process for many files (test/fresh-modules.setup.mts starts each file's own state afresh).
		isolate: false,
		setupFiles: ['test/fresh-modules.setup.mts'],
		testTimeout: 30_000,
		hookTimeout: 60_000,
	},
});
