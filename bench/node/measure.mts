/**
 * The benchmark's child process: runs one scenario through the harness (the
 * built package, n8n-core's engine) and measures it. A fresh process per
 * scenario, so that peak memory belongs to that run alone and the mock (in the
 * parent) is not counted.
 */
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { loadPackages } from '../../harness/in-process/packages.mts';
import { runChain } from '../../harness/in-process/workflow.mts';
import { isMajorGc } from './gc.mts';
import type { Scenario } from './scenarios.mts';

export interface ChildTask {
	scenario: Scenario;
	credentials: Record<string, ICredentialDataDecryptedObject>;
}

export interface Measurement {
	/** When the run began, in ms since the epoch (to match the mock's GC pauses to it). */
	startedAt: number;
	wallMs: number;
	/** CPU time (user + system) of this process during the run: on a shared machine, less moved by other work than wall time. */
	cpuMs: number;
	/** Per node, the engine's execution time. */
	nodeMs: number[];
	items: number;
	distinct?: number;
	error?: string;
	peakRssDeltaBytes: number;
	peakHeapDeltaBytes: number;
	/** This process's GC pauses during the run: their sum, and how many were major (mark-compact). */
	gcPauseMs: number;
	gcMajor: number;
}

const SAMPLE_EVERY_MS = 10;

export async function measure({ scenario, credentials }: ChildTask): Promise<Measurement> {
	const packages = await loadPackages();
	// Require every node's code before the clock starts: loading is not part of the run.
	for (const step of scenario.steps) packages.node(step.type);
	(globalThis as { gc?: () => void }).gc?.();
	const before = process.memoryUsage();
	let peakHeap = before.heapUsed;
	const sampler = setInterval(() => {
		peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
	}, SAMPLE_EVERY_MS);
	const pauses: PerformanceEntry[] = [];
	const gc = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
	gc.observe({ entryTypes: ['gc'] });
	const started = performance.now();
	const cpuBefore = process.cpuUsage();
	const runs = await runChain(scenario.steps, { input: scenario.input, credentials });
	const wallMs = performance.now() - started;
	const cpu = process.cpuUsage(cpuBefore);
	clearInterval(sampler);
	pauses.push(...gc.takeRecords());
	gc.disconnect();
	const during = pauses.filter((entry) => entry.startTime >= started && entry.startTime <= started + wallMs);
	peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
	const peakRss = process.resourceUsage().maxRSS * 1024;

	const last = runs[runs.length - 1];
	const failed = runs.find((run) => run.error);
	const ids = scenario.idField ? new Set(last.items.map((item) => item.json[scenario.idField!])) : undefined;
	return {
		startedAt: performance.timeOrigin + started,
		wallMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		nodeMs: runs.map((run) => run.executionTime ?? Number.NaN),
		items: last.items.length,
		...(ids ? { distinct: ids.size } : {}),
		...(failed?.error ? { error: `${failed.error.message}${failed.error.description ? ` — ${failed.error.description}` : ''}` } : {}),
		peakRssDeltaBytes: peakRss - before.rss,
		peakHeapDeltaBytes: peakHeap - before.heapUsed,
		gcPauseMs: during.reduce((sum, entry) => sum + entry.duration, 0),
		gcMajor: during.filter(isMajorGc).length,
	};
}
