/**
 * Loaded into a `record` process with `node --expose-gc --import <this file>`: every
 * RECORD_PROBE_EVERY_MS (default 500) a full collection, then the heap in use, alone and with the
 * array buffers (typed arrays and Buffers live outside V8's heap: src/clone/id-set.mts's table is
 * one), and at exit the largest of each (the most the process held at once: what a walk keeps,
 * not garbage not yet collected) and the peak RSS, as JSON into the file RECORD_PROBE_OUT. Node 24 runs this file as
 * it is; it imports no mock code.
 */
import { writeFileSync } from 'node:fs';

const out = process.env.RECORD_PROBE_OUT;
const every = Number(process.env.RECORD_PROBE_EVERY_MS ?? 500);
const gc = (globalThis as { gc?: () => void }).gc;
if (out === undefined || gc === undefined) throw new Error('record-memory-probe: run with --expose-gc and RECORD_PROBE_OUT=FILE');
let samples = 0;
let peakHeapAfterGc = 0;
let peakWithBuffers = 0;
const sample = () => {
	gc();
	samples++;
	const { heapUsed, arrayBuffers } = process.memoryUsage();
	peakHeapAfterGc = Math.max(peakHeapAfterGc, heapUsed);
	peakWithBuffers = Math.max(peakWithBuffers, heapUsed + arrayBuffers);
};
setInterval(sample, every).unref();
process.on('exit', () => {
	sample();
	writeFileSync(out, JSON.stringify({ peakHeapAfterGc, peakWithBuffers, maxRssBytes: process.resourceUsage().maxRSS * 1024, samples }));
});
