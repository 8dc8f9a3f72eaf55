/**
 * `node bench/poll-logic.mjs OLD_DIST NEW_DIST`: the Poll Trigger's own work on the common path, two builds side
 * by side (e.g. a copy of the base commit's dist/ and this one's), alternating in blocks so both meet the same load.
 * No HTTP and no n8n: New Job's pollNew (the built dist/nodes/JobSignalsPollTrigger/poll-new.js) against an
 * in-memory offset list of 20,000 jobs, five per second, pages of 100. Measured in CPU time (process.cpuUsage),
 * which a busy machine disturbs less than wall time: an idle poll, and a poll that finds 1,000 new jobs; then, once
 * each, a bulk import (50,000 jobs on one second) polled with Include Existing Items: CPU time and the saved state's size.
 * Prints the medians per block and the ratio NEW / OLD.
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';

const [oldDist, newDist] = process.argv.slice(2).map((dir) => resolve(dir));
if (!oldDist || !newDist) {
	console.error('usage: node bench/poll-logic.mjs OLD_DIST NEW_DIST');
	process.exit(2);
}
const require = createRequire(import.meta.url);
const load = (dist) => ({
	pollNew: require(`${dist}/nodes/JobSignalsPollTrigger/poll-new.js`).pollNew,
	TimeBudget: require(`${dist}/nodes/JobSignalsPollTrigger/read-down.js`).TimeBudget,
});
const sides = { old: load(oldDist), new: load(newDist) };

const LIST = 20_000;
const NEW = 1_000;
const PAGE = 100;
const NEWEST = 1_790_000_000;
const row = (serial, created) => ({ id: `job_${String(serial).padStart(7, '0')}`, created, item: { job_id: `job_${serial}`, created_at: created } });
const base = Array.from({ length: LIST }, (_, i) => row(LIST - i, NEWEST - Math.floor(i / 5)));
const fresh = Array.from({ length: NEW }, (_, i) => row(LIST + NEW - i, NEWEST + 1 + Math.floor((NEW - 1 - i) / 5)));

function feedOver(list) {
	const first = { offset: 0 };
	return {
		kind: 'offset', pageSize: PAGE, key: 'bench', first, sample: first,
		reader: () => ({
			read: async (position) => {
				const start = Number(position.offset);
				const items = list.items.slice(start, start + PAGE);
				return { items, next: start + PAGE < list.items.length ? { ...position, offset: start + PAGE } : undefined };
			},
		}),
	};
}

const context = {};
const cpuMs = () => {
	const { user, system } = process.cpuUsage();
	return (user + system) / 1000;
};

/** CPU ms per poll over `repeat` polls: idle (nothing new) or with the 1,000 new jobs on top, from the activation's state. */
async function block(side, kind, repeat) {
	const { pollNew, TimeBudget } = sides[side];
	const list = { items: base };
	const feed = feedOver(list);
	const { state } = await pollNew(context, feed, undefined, false, new TimeBudget(300_000));
	list.items = kind === 'idle' ? base : [...fresh, ...base];
	const started = cpuMs();
	for (let i = 0; i < repeat; i++) {
		const { emitted } = await pollNew(context, feed, state, false, new TimeBudget(300_000));
		if (emitted.length !== (kind === 'idle' ? 0 : NEW)) throw new Error(`${side} ${kind}: emitted ${emitted.length}`);
	}
	return (cpuMs() - started) / repeat;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const BLOCKS = 15;
const lines = [`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the start`];
for (const [kind, repeat] of [['idle', 2000], ['1,000 new', 40]]) {
	const times = { old: [], new: [] };
	// Warm-up, then OLD and NEW alternate block by block.
	for (const side of ['old', 'new']) await block(side, kind === 'idle' ? 'idle' : 'new', repeat);
	for (let b = 0; b < BLOCKS; b++) for (const side of b % 2 === 0 ? ['old', 'new'] : ['new', 'old']) times[side].push(await block(side, kind === 'idle' ? 'idle' : 'new', repeat));
	const [o, n] = [median(times.old), median(times.new)];
	lines.push(`${kind} poll: OLD ${o.toFixed(3)} ms CPU, NEW ${n.toFixed(3)} ms CPU (medians of ${BLOCKS} blocks of ${repeat}); NEW / OLD = ${(n / o).toFixed(3)}`);
}
// A bulk import: 50,000 jobs on one second above the list, one poll with Include Existing Items; then an idle poll.
const BULK = 50_000;
const bulk = Array.from({ length: BULK }, (_, i) => row(10_000_000 + i, NEWEST + 100));
for (const side of ['old', 'new']) {
	const { pollNew, TimeBudget } = sides[side];
	const list = { items: [...bulk, ...base.slice(0, 100)] };
	const feed = feedOver(list);
	let cpu = cpuMs();
	const { emitted, state } = await pollNew(context, feed, undefined, true, new TimeBudget(300_000));
	const pollCpu = cpuMs() - cpu;
	cpu = cpuMs();
	const idle = await pollNew(context, feed, state, false, new TimeBudget(300_000));
	const idleCpu = cpuMs() - cpu;
	if (new Set(emitted.map((e) => e.id)).size !== BULK + 100 || idle.emitted.length !== 0) throw new Error(`${side}: bulk import not emitted exactly once`);
	lines.push(`${side.toUpperCase()}: ${BULK.toLocaleString('en')} jobs on one second (+100 older), Include Existing Items: ${pollCpu.toFixed(0)} ms CPU, each once, saved state ${Buffer.byteLength(JSON.stringify(state))} bytes; the idle poll after: ${idleCpu.toFixed(1)} ms CPU`);
}
lines.push(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} at the end`);
console.log(lines.join('\n'));
