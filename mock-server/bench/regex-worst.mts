/**
 * What stubs' regular expressions cost (`npm run bench:mock-regex`), in four parts:
 * 0. The work budget (linear-regex.mts's WORK_BUDGET): the DFA-hostile patterns on the longest text the budget
 *    pays for (so the slowest match the mock runs), in ms and ns a step; then over HTTP, a stub of the worst
 *    accepted pattern asked with that longest path, and with a path past the budget (not run: a 404 saying so),
 *    each beside a request to a plain stub, against the plain stub alone, side by side.
 * 1. The engine's worst cases: each pattern compiled afresh (its first match builds the engine's states, the
 *    slowest), matched once on near-miss texts as long as a path (34 characters), a URL or header (16 KB, Node's
 *    header limit) and a body (1 MiB, the standalone server's default limit); JavaScript's own engine beside it
 *    on the tester's pattern, on texts short enough for it to finish.
 * 2. Over HTTP, the tester's case: a stub with urlPathPattern /redos/(a+)+b, a near-miss 34-character path and a
 *    /v2 request sent beside it, each timed to its whole answer.
 * 3. The unmatched-request path of bench:mock-prism (stub-cost.mts's 100 stubs, and 100 pattern stubs whose
 *    literal start the path shares, so each pattern is run) before and after, with BEFORE_DIST set to a build of
 *    the mock before linear-time patterns: four mocks in one process taking turns request by request.
 */
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { getResponse } from 'msw';
import { ENDPOINTS } from './answer-checks.mts';
import { median } from './prism-report.mts';
import { randomAb, worstPatternAfter } from './regex-worst-cases.mts';
import { unmatchedStubs } from './stub-cost.mts';
import type * as MockPackage from '../src/index.mts';
import type * as LinearRegex from '../src/wiremock/linear-regex.mts';

const dist = resolve(import.meta.dirname, '../dist');
const after = (await import(join(dist, 'index.js'))) as typeof MockPackage;
const load = () => loadavg().map((each) => each.toFixed(2)).join(' ');
const ms = (value: number) => `${value.toFixed(2)} ms`;

console.log(`bench:mock-regex, ${new Date().toISOString()}, node ${process.version}, load average ${load()}\n`);

// The engine, through the source (bench-only import; the package exports no engine).
const { compileLinear, compileWork, withPatternBudget, WORK_BUDGET, WorkMeter } = (await import('../src/wiremock/linear-regex.mts')) as typeof LinearRegex;
/** The longest text the budget pays for, with the pattern's compile. */
const longest = (size: number) => Math.floor((WORK_BUDGET - compileWork(size)) / size) - 1;

// 0. The budget.
{
	console.log(`0. The budget: ${WORK_BUDGET.toLocaleString('en')} steps a request; each pattern compiled afresh, on the longest text the budget pays for (3 runs, the slowest shown)`);
	let slowest = { ms: 0, what: '' };
	for (const source of [worstPatternAfter(''), '(?:[ab]|a[ab]{240}b)*c', '[ab]*a[ab]{150}', '[ab]*a[ab]{20}', '(?:a?){150}a{150}', '.*foo.*']) {
		const size = compileLinear(source, { whole: true, dotAll: true }).size;
		const length = longest(size);
		const input = source.startsWith('(?:a?)') ? 'a'.repeat(length) : source === '.*foo.*' ? 'x'.repeat(length) : randomAb(length, size);
		let ms = 0;
		for (let run = 0; run < 3; run++) {
			const regex = compileLinear(source, { whole: true, dotAll: true });
			const started = performance.now();
			regex.test(input);
			ms = Math.max(ms, performance.now() - started);
		}
		if (ms > slowest.ms) slowest = { ms, what: `${source} on ${length} characters` };
		console.log(`  ${source.padEnd(26)} ${size} instructions, ${length} characters: ${ms.toFixed(2)} ms (${((ms * 1e6) / WORK_BUDGET).toFixed(1)} ns a step)`);
	}
	console.log(`  slowest: ${ms(slowest.ms)} (${slowest.what}); load average ${load()}`);
	const server = await after.startMockServer({ ...after.DEFAULT_OPTIONS, rateLimit: 0, stateDir: null, port: 0 });
	try {
		const pattern = worstPatternAfter('/w/');
		const size = compileLinear(pattern, { whole: true, dotAll: true }).size;
		for (const mapping of [{ request: { method: 'GET', urlPathPattern: pattern }, response: { status: 299 } }, { request: { method: 'GET', urlPath: '/plain' }, response: { status: 298 } }]) {
			const added = await fetch(`${server.appUrl}/__admin/mappings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(mapping) });
			if (added.status !== 201) throw new Error(`the stub: ${added.status}`);
		}
		const timed = async (url: string, status: number) => {
			const started = performance.now();
			const response = await fetch(url);
			await response.arrayBuffer();
			if (response.status !== status) throw new Error(`${url.slice(0, 80)}: ${response.status}`);
			return performance.now() - started;
		};
		// The longest path the budget pays for (the pattern is compiled once; each request pays for the match only), and one past the budget.
		const edge = `/w/${randomAb(Math.floor(WORK_BUDGET / size) - 1 - 3, 9)}`;
		const past = `/w/${randomAb(8000, 10)}`;
		const rows: [string, number[], number[]][] = [];
		for (const [name, path, status] of [['plain stub alone', '', 0], [`worst pattern, ${edge.length}-character path (runs)`, edge, 404], [`worst pattern, ${past.length}-character path (over the budget, not run)`, past, 404]] as const) {
			const mine: number[] = [];
			const beside: number[] = [];
			for (let i = 0; i < 45; i++) {
				const [a, b] = await Promise.all([path === '' ? Promise.resolve(0) : timed(`${server.appUrl}${path}`, status), timed(`${server.appUrl}/plain`, 298)]);
				if (i < 5) continue;
				mine.push(a);
				beside.push(b);
			}
			rows.push([name, mine, beside]);
		}
		const alone = median(rows[0][2]);
		for (const [name, mine, beside] of rows) {
			const own = name === 'plain stub alone' ? '' : `its own median ${ms(median(mine))}, max ${ms(Math.max(...mine))}; `;
			console.log(`  over HTTP, ${name}: ${own}the plain stub beside it median ${ms(median(beside))} (×${(median(beside) / alone).toFixed(2)} of alone), max ${ms(Math.max(...beside))}`);
		}
		console.log(`  40 pairs each after 5 warm-up; load average ${load()}\n`);
	} finally {
		await server.close();
	}
}

// 1. The engine's worst cases without the budget.
const unbounded = new WorkMeter(Number.POSITIVE_INFINITY);
const ab = (length: number) => Array.from({ length }, (_, i) => ((i * 7919) % 13 < 6 ? 'a' : 'b')).join('');
const TEXTS: [string, (unit: string) => string][] = [
	['34 chars', (unit) => unit.repeat(34).slice(0, 33) + '!'],
	['16 KB', (unit) => unit.repeat(16384).slice(0, 16383) + '!'],
	['1 MiB', (unit) => unit.repeat(1 << 20).slice(0, (1 << 20) - 1) + '!'],
];
const PATTERNS: [string, string][] = [
	['/redos/(a+)+b', 'a'],
	['(a+)+b', 'a'],
	['(a|aa)*c', 'a'],
	['(.*a){20}', 'b'],
	['(?:a?){150}a{150}', 'a'],
	['[ab]*a[ab]{490}', ''],
	['(?:[ab]|a[ab]{490}b)*c', ''],
];
console.log('1. One match, the pattern compiled afresh (its first match builds its states)');
let worst = { took: 0, what: '' };
for (const [source, unit] of PATTERNS) {
	const row: string[] = [];
	for (const [name, text] of TEXTS) {
		const input = unit === '' ? ab(name === '34 chars' ? 34 : name === '16 KB' ? 16384 : 1 << 20) : source.startsWith('/redos/') ? `/redos/${text(unit).slice(7)}` : text(unit);
		const regex = compileLinear(source, { whole: true, dotAll: true });
		const started = performance.now();
		withPatternBudget(unbounded, () => regex.test(input));
		const took = performance.now() - started;
		if (name !== '1 MiB' && took > worst.took) worst = { took, what: `${source} on ${name}` };
		row.push(`${name} ${ms(took)}`);
	}
	console.log(`  ${source.padEnd(26)} ${row.join(', ')}`);
}
// Random a/b text (randomAb): nearly every character is a new state of the engine's DFA, which fills its budget, and then the NFA runs.
for (const n of [10, 100, 490]) {
	const row: string[] = [];
	for (const length of [34, 16384]) {
		const regex = compileLinear(`[ab]*a[ab]{${n}}`, { whole: true, dotAll: true });
		const input = randomAb(length, n + length);
		const started = performance.now();
		withPatternBudget(unbounded, () => regex.test(input));
		const took = performance.now() - started;
		if (took > worst.took) worst = { took, what: `[ab]*a[ab]{${n}} on ${length} random a/b` };
		row.push(`${length === 34 ? '34 chars' : '16 KB'} ${ms(took)} (${((took * 1000) / length).toFixed(1)} µs a character)`);
	}
	console.log(`  ${`[ab]*a[ab]{${n}}, random a/b`.padEnd(26)} ${row.join(', ')}`);
}
console.log(`  slowest on a path, URL or header: ${ms(worst.took)} (${worst.what})`);
for (const length of [20, 22, 24, 26]) {
	const input = `/redos/${'a'.repeat(length)}`;
	const started = performance.now();
	new RegExp('^(?:/redos/(a+)+b)$', 's').test(input);
	console.log(`  JavaScript's RegExp, /redos/(a+)+b on ${input.length} chars: ${ms(performance.now() - started)}`);
}
console.log(`  load average ${load()}\n`);

// 2. Over HTTP.
{
	const server = await after.startMockServer({ ...after.DEFAULT_OPTIONS, rateLimit: 0, stateDir: null, port: 0 });
	try {
		const added = await fetch(`${server.appUrl}/__admin/mappings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ request: { method: 'GET', urlPathPattern: '/redos/(a+)+b' }, response: { status: 299 } }) });
		if (added.status !== 201) throw new Error(`the stub: ${added.status}`);
		const auth = { authorization: `Bearer ${after.DEFAULT_OPTIONS.token}` };
		const timed = async (url: string, headers: Record<string, string>, status: number) => {
			const started = performance.now();
			const response = await fetch(url, { headers });
			await response.arrayBuffer();
			if (response.status !== status) throw new Error(`${url}: ${response.status}`);
			return performance.now() - started;
		};
		const nearMiss: number[] = [];
		const beside: number[] = [];
		for (let i = 0; i < 50; i++) {
			const [a, b] = await Promise.all([timed(`${server.appUrl}/redos/${'a'.repeat(27)}`, {}, 404), timed(`${server.apiUrl}/collections`, auth, 200)]);
			if (i < 5) continue;
			nearMiss.push(a);
			beside.push(b);
		}
		console.log(`2. Over HTTP, 45 pairs after 5 warm-up: the near-miss /redos/${'a'.repeat(27)} median ${ms(median(nearMiss))}, max ${ms(Math.max(...nearMiss))}; GET /v2/collections beside it median ${ms(median(beside))}, max ${ms(Math.max(...beside))}; load average ${load()}\n`);
	} finally {
		await server.close();
	}
}

// 3. Before and after on the unmatched-request path.
const beforeDist = process.env.BEFORE_DIST;
if (beforeDist === undefined) {
	console.log('3. skipped: set BEFORE_DIST to the index.js of a build before linear-time patterns');
} else {
	const before = (await import(resolve(beforeDist))) as typeof MockPackage;
	const requests = Number(process.env.BENCH_IN_PROCESS_REQUESTS ?? 600);
	const response = { status: 418 };
	// Patterns the path starts with, in its folder: the index cannot pass them over, each one is run and fails.
	const runPatterns = (prefix: string) => Array.from({ length: 100 }, (_, i) => ({ request: { method: 'GET', urlPathPattern: `${prefix}${ENDPOINTS[i % ENDPOINTS.length].path.split('?')[0]}(?:/stub-${i}|/[a-z]+/x${i})` }, response }));
	for (const [part, stubsOf] of [['stub-cost.mts\'s 100 stubs', (prefix: string) => unmatchedStubs(prefix, ENDPOINTS)], ['100 pattern stubs each run', runPatterns]] as const) {
		const kinds = { before, after };
		const services = new Map<string, MockPackage.MockService>();
		for (const [name, mockPackage] of Object.entries(kinds)) {
			const options = { ...mockPackage.DEFAULT_OPTIONS, rateLimit: 0, stateDir: null };
			services.set(`${name}`, await mockPackage.createMockService(options));
			const stubbed = await mockPackage.createMockService(options);
			for (const mapping of stubsOf(mockPackage.API_VERSION_SEGMENT)) stubbed.stubs.add(mapping);
			services.set(`${name} stubbed`, stubbed);
		}
		const names = [...services.keys()];
		console.log(`3. ${part}: ${requests} requests per mock and endpoint after ${Math.ceil(requests / 10)} warm-up, the four mocks taking turns; load average ${load()}`);
		for (const endpoint of ENDPOINTS) {
			const times = new Map(names.map((name) => [name, [] as number[]]));
			const warmup = Math.ceil(requests / 10);
			for (let i = 0; i < warmup + requests; i++) {
				for (let k = 0; k < names.length; k++) {
					const name = names[(i + k) % names.length];
					const service = services.get(name)!;
					const started = performance.now();
					const answer = await getResponse(service.handlers, new Request(`http://127.0.0.1${after.API_VERSION_SEGMENT}${endpoint.path}`, { headers: { authorization: `Bearer ${after.DEFAULT_OPTIONS.token}` } }));
					await answer?.arrayBuffer();
					const took = performance.now() - started;
					if (answer?.status !== 200) throw new Error(`${name} ${endpoint.path}: ${answer?.status ?? 'no answer'}`);
					if (i >= warmup) times.get(name)!.push(took);
				}
			}
			const m = Object.fromEntries(names.map((name) => [name, median(times.get(name)!)]));
			console.log(`  ${endpoint.name}: medians before ${ms(m.before)}, before stubbed ${ms(m['before stubbed'])} (×${(m['before stubbed'] / m.before).toFixed(3)}), after ${ms(m.after)}, after stubbed ${ms(m['after stubbed'])} (×${(m['after stubbed'] / m.after).toFixed(3)}); after stubbed / before stubbed ×${(m['after stubbed'] / m['before stubbed']).toFixed(3)}; load average ${load()}`);
		}
		for (const service of services.values()) service.close();
	}
}
