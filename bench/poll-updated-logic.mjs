/**
 * `node --expose-gc bench/poll-updated-logic.mjs DIST [JOBS]`: Updated Job's own work on one source of JOBS
 * jobs (default 250,000), without HTTP or n8n: the built pollUpdated (DIST/nodes/JobSignalsPollTrigger/
 * poll-updated.js) against an in-memory cursor list whose pages of 100 are made as they are read (each job
 * a record of about 20 fields, as the API sends). Measures the activation walk and a change walk after 3
 * jobs changed: wall time, CPU time, and the heap's peak above the heap before the walk (after a full GC),
 * sampled at every page read. Give it another build's DIST to compare.
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';

const dist = resolve(process.argv[2] ?? 'dist');
const JOBS = Number(process.argv[3] ?? 250_000);
const require = createRequire(import.meta.url);
const { pollUpdated } = require(`${dist}/nodes/JobSignalsPollTrigger/poll-updated.js`);
const gc = globalThis.gc;
if (!gc) throw new Error('run with node --expose-gc');

const PAGE = 100;
const NEWEST = 1_790_000_000;
// The source as the service holds it: ids and times in typed arrays (not counted as the walk's).
const updated = new Float64Array(JOBS).map((_, i) => NEWEST - i);
const created = new Float64Array(JOBS).map((_, i) => NEWEST - i);
let peak = 0;

const record = (i) => ({
	job_id: `job_${String(i).padStart(7, '0')}`, job_title: `Senior Engineer ${i}`, url_job: `https://careers.example.com/jobs/${i}`,
	description: `Example is hiring a Senior Engineer ${i} in Berlin. You will work with TypeScript, Postgres and Kubernetes.`,
	location: 'Berlin, Germany', region: 'Europe', categories: ['Engineering (Software)'], job_tags: ['full-time', 'remote'],
	source_id: 'src_000001', url_source: 'example.com', source_name: 'Example', created_at: created[i], updated_at: updated[i],
});

const feed = {
	kind: 'cursor', pageSize: PAGE, key: 'bench', first: {}, sample: {},
	reader: () => ({
		read: async (position) => {
			await new Promise((done) => setImmediate(done));
			peak = Math.max(peak, process.memoryUsage().heapUsed);
			const start = position.cursor_job_id === undefined ? 0 : Number(String(position.cursor_job_id).slice(4)) + 1;
			const end = Math.min(JOBS, start + PAGE);
			const items = [];
			for (let i = start; i < end; i++) {
				const item = record(i);
				items.push({ id: item.job_id, created: item.created_at, item });
			}
			let newest = -Infinity;
			if (position.cursor_job_id === undefined) for (const u of updated) newest = Math.max(newest, u);
			return { items, next: end < JOBS ? { cursor_job_id: items[items.length - 1].id } : undefined, metrics: { count_jobs: JOBS, updated_at: newest } };
		},
	}),
};

async function walk(saved) {
	gc();
	const base = process.memoryUsage().heapUsed;
	peak = base;
	const cpu = process.cpuUsage();
	const started = performance.now();
	try {
		const result = await pollUpdated({}, feed, saved);
		peak = Math.max(peak, process.memoryUsage().heapUsed);
		const { user, system } = process.cpuUsage(cpu);
		return { result, line: `${((performance.now() - started) / 1000).toFixed(1)} s, CPU ${((user + system) / 1e6).toFixed(1)} s, heap peak +${((peak - base) / 1024 / 1024).toFixed(1)} MB` };
	} catch (error) {
		return { line: `failed: ${error.constructor.name}: ${error.message}` };
	}
}

const lines = [`${dist}: Updated Job, ${JOBS.toLocaleString('en')} jobs, ${Math.ceil(JOBS / PAGE)} pages; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`];
const activation = await walk(undefined);
lines.push(`  activation: ${activation.line}${activation.result ? `, state ${JSON.stringify(activation.result.state).length} bytes` : ''}`);
if (activation.result) {
	// Three jobs change, one of them deep in the list.
	for (const i of [5, JOBS >> 1, JOBS - 1]) updated[i] = NEWEST + 10;
	const change = await walk(activation.result.state);
	lines.push(`  after 3 changes: ${change.line}${change.result ? `, emitted ${change.result.emitted.map((e) => e.id).join(' ')}` : ''}`);
}
console.log(lines.join('\n'));
