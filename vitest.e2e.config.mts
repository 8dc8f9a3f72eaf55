import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// End-to-end: a real n8n (from the cache, installed on first use) with the
// packed package, against the standalone mock over real HTTP. Slow by nature.

/**
 * Files with no tight time bound, most of which mostly wait (on poll times, n8n's downtime), run two at a time after
 * the others; registry-install (npm, n8n starts), keep-new and resources (batches of 25,000 and 5,000 items) are
 * CPU-bound and gain only beside a waiting one; none of them times an answer. options, keep-new, resources,
 * trigger-versions and ai-agent run their workflows in the run's one shared n8n (harness/n8n/shared-n8n.mts), two of
 * them at a time at most. mock-image is paired too: a podman build, then its first answer, measured and reported,
 * bound 60 s. The others run alone: they keep both cores busy (a flood of 10,000 requests, five n8n processes and
 * 1,300 executions, Chromium) or time an answer (the trigger's answers within the service's 5 s through the front
 * proxy, a worker's lock renewed within 20 s; dev-loop's reload, 4 s alone, took 65 s paired): each failed once
 * beside another file on the busy shared machine. poll-trigger's exact
 * count of failed polls is paired: the "no answer" polls it once met came from overlapping polls on n8n's default
 * expression engine (POLL_ENV in test/e2e/poll-e2e.mts), not from time; only a request past the node's 30 s timeout
 * would change it. A file not listed here (a new one) runs alone. Listed longest first, so the two workers
 * finish close together; measured in docs/testing.md.
 */
export const PAIRED = [
	'test/e2e/poll-trigger-durable.e2e.test.mts',
	'test/e2e/poll-trigger.e2e.test.mts',
	'test/e2e/downtime.e2e.test.mts',
	'test/e2e/poll-trigger-queue.e2e.test.mts',
	'test/e2e/registry-install.e2e.test.mts',
	'test/e2e/options.e2e.test.mts',
	'test/e2e/mock-image.e2e.test.mts',
	'test/e2e/keep-new.e2e.test.mts',
	'test/e2e/resources.e2e.test.mts',
	'test/e2e/restart-demo.e2e.test.mts',
	'test/e2e/trigger-versions.e2e.test.mts',
	'test/e2e/ai-agent.e2e.test.mts',
];

/** vitest's order (its groups first), then PAIRED's files in the order listed; a stable sort keeps the rest as vitest put them. */
class PairedLongestFirst extends BaseSequencer {
	override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		const rank = (spec: TestSpecification) => {
			const index = PAIRED.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
			return index < 0 ? PAIRED.length : index;
		};
		return (await super.sort(files)).sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b));
	}
}

// boots.setup.mts prints each file's count of n8n boots when it ends (shared-n8n.setup.mts the shared n8n's, at the run's end).
const project = { include: ['test/e2e/**/*.e2e.test.mts'], setupFiles: ['test/e2e/boots.setup.mts'], testTimeout: 300_000, hookTimeout: 1_200_000 };

export default defineConfig({
	test: {
		// Redis, Postgres and Chromium first: a missing one is named with its install command. Then the package, packed
		// once for every file, and the server of the shared n8n, which starts it when a file first joins. All run once, by
		// the root project: the projects below do not inherit them.
		globalSetup: ['test/e2e/system-packages.setup.mts', 'test/e2e/packed-package.setup.mts', 'test/e2e/shared-n8n.setup.mts'],
		sequence: { sequencer: PairedLongestFirst },
		projects: [
			{ extends: false, test: { ...project, name: 'alone', exclude: PAIRED, maxWorkers: 1, sequence: { groupOrder: 1 } } },
			{ extends: false, test: { ...project, name: 'paired', include: PAIRED, maxWorkers: 2, sequence: { groupOrder: 2 } } },
		],
	},
});
