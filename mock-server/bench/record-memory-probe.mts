/**
 * Loaded into a `record` process with `node --expose-gc --import <this file>`: every
 * RECORD_PROBE_EVERY_MS (default 500) a full collection, then the heap in use, and at exit the
 * largest of those (the most the process held at once: what a walk keeps, not garbage not yet
 * collected) and the peak RSS, as JSON into the file RECORD_PROBE_OUT. Node 24 runs this file as
 * it is; it imports no mock code.
 */
import { writeFileSync } from 'node:fs';

const out = process.env.RECORD_PROBE_OUT;
const every = Number(process.env.RECORD_PROBE_EVERY_MS ?? 500);
const gc = (globalThis as { gc?: () => void }).gc;
if (out === undefined || gc === undefined) throw new Error('record-memory-probe: run with --expose-gc and RECORD_PROBE_OUT=FILE');
let samples = 0;
let peakHeapAfterGc = 0;
const sample = () => {
	gc();
	samples++;
	peakHeapAfterGc = Math.max(peakHeapAfterGc, process.memoryUsage().heapUsed);
};
setInterval(sample, every).unref();
process.on('exit', () => {
	sample();
	writeFileSync(out, JSON.stringify({ peakHeapAfterGc, maxRssBytes: process.resourceUsage().maxRSS * 1024, samples }));
});
