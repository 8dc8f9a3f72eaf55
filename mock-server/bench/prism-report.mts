/** The tables `bench:mock-prism` prints (Markdown, as docs/benchmarks.md holds them): the stubs' rounds and their in-process figures, then each round against Prism, each answer, the medians. */
import type { Endpoint, Verdict } from './answer-checks.mts';
import type { LoadResult } from './bench-load.mts';
import type { InProcessCost } from './stub-cost.mts';

export interface Measured extends LoadResult {
	/** The server process's CPU time (user + system) per request, ms; undefined where /proc is not there. */
	cpuMsPerRequest?: number;
	/** This process's CPU time per request (the load generator, and Prism's log read from its pipe), ms. */
	clientCpuMsPerRequest: number;
}

export interface Round {
	round: number;
	endpoint: string;
	first: string;
	/** Load average over 1 minute, right after the round's measurements of this endpoint. */
	load1: number;
	/** By server name. */
	measured: Map<string, Measured>;
}

export const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const fmt = (n: number | undefined, digits = 1) => (n === undefined ? '—' : n.toFixed(digits));
const row = (cells: string[]) => console.log(`| ${cells.join(' | ')} |`);
const head = (cells: string[]) => {
	row(cells);
	row(cells.map(() => '---'));
};

export class Report {
	private readonly rounds: Round[] = [];
	private readonly servers: string[];
	private readonly others: string[];
	private readonly verdicts: Map<string, Verdict>;

	/** `servers[0]` is the mock, which every other server is compared with; `verdicts` by `${endpoint} ${server}`. */
	constructor(servers: string[], verdicts: Map<string, Verdict>) {
		this.servers = servers;
		this.others = servers.slice(1);
		this.verdicts = verdicts;
	}

	header(title: string, uptime: string): void {
		console.log(title);
		console.log(`uptime at the start: ${uptime}\n`);
		head(['round', 'endpoint', 'first', ...this.servers.map((s) => `${s}: req/s, p50 / p99 ms, CPU ms/req`), ...this.others.map((s) => `mock ÷ ${s} req/s`), 'load (1 min)']);
	}

	/** Prints the round's row at once, so a long run shows progress. */
	round(round: Round): void {
		this.rounds.push(round);
		const mock = round.measured.get(this.servers[0])!;
		row([
			String(round.round),
			round.endpoint,
			round.first,
			...this.servers.map((s) => {
				const m = round.measured.get(s)!;
				return `${fmt(m.rps, 0)}, ${fmt(m.p50)} / ${fmt(m.p99)}, ${fmt(m.cpuMsPerRequest, 2)}`;
			}),
			...this.others.map((s) => `×${(mock.rps / round.measured.get(s)!.rps).toFixed(2)}`),
			fmt(round.load1),
		]);
	}

	answers(endpoints: Endpoint[]): void {
		console.log('\nWhat each server answered (checked once per server before the load; during it every answer had that length)\n');
		head(['endpoint', 'server', 'bytes per answer', 'items', 'as the contract says?']);
		for (const endpoint of endpoints) {
			for (const server of this.servers) {
				const v = this.verdicts.get(`${endpoint.name} ${server}`)!;
				row([`${endpoint.name} (\`${endpoint.path}\`)`, server, v.bytes.toLocaleString('en'), v.items.toLocaleString('en'), v.problems.length === 0 ? 'yes' : `no: ${v.problems.join('; ')}`]);
			}
		}
	}

	summary(endpoints: Endpoint[], rounds: number): void {
		console.log(`\nMedians over the ${rounds} rounds; the ratios are the mock's figure over the other server's, round by round, then their median\n`);
		head(['endpoint', 'server', 'req/s', 'p50 / p99 ms', 'CPU ms/req', 'load generator CPU ms/req', 'mock ÷ server req/s, by round', 'median', 'server ÷ mock CPU ms/req, median']);
		for (const endpoint of endpoints) {
			const runs = this.rounds.filter((r) => r.endpoint === endpoint.name);
			const of = (server: string) => runs.map((r) => r.measured.get(server)!);
			const mock = of(this.servers[0]);
			for (const server of this.servers) {
				const mine = of(server);
				const cpu = mine.every((m) => m.cpuMsPerRequest !== undefined) ? median(mine.map((m) => m.cpuMsPerRequest!)) : undefined;
				const isMock = server === this.servers[0];
				const ratios = mine.map((m, i) => mock[i].rps / m.rps);
				const cpuRatio = isMock || cpu === undefined ? undefined : median(mine.map((m, i) => m.cpuMsPerRequest! / mock[i].cpuMsPerRequest!));
				row([
					endpoint.name,
					server,
					fmt(median(mine.map((m) => m.rps)), 0),
					`${fmt(median(mine.map((m) => m.p50)))} / ${fmt(median(mine.map((m) => m.p99)))}`,
					fmt(cpu, 2),
					fmt(median(mine.map((m) => m.clientCpuMsPerRequest)), 2),
					isMock ? '' : ratios.map((r) => `×${r.toFixed(2)}`).join(', '),
					isMock ? '' : `**×${median(ratios).toFixed(2)}**`,
					cpuRatio === undefined ? '' : `×${cpuRatio.toFixed(2)}`,
				]);
			}
		}
	}
}

export interface StubRound {
	round: number;
	endpoint: string;
	/** Load average over 1 minute, right after the round. */
	load1: number;
	mock: Measured;
	/** The same mock again: the control. */
	again: Measured;
	stubbed: Measured;
}

/** The stubs' part: the mock, the mock again and the mock with 100 stubs, round by round; the medians of the ratios; the in-process medians. */
export class StubsReport {
	private readonly rounds: StubRound[] = [];

	header(title: string, uptime: string): void {
		console.log(title);
		console.log(`uptime at the start: ${uptime}\n`);
		head(['round', 'endpoint', 'mock: req/s, CPU ms/req', 'mock again: req/s, CPU ms/req', 'mock, 100 stubs: req/s, CPU ms/req', 'mock ÷ stubbed req/s', 'mock ÷ mock again req/s', 'load (1 min)']);
	}

	round(round: StubRound): void {
		this.rounds.push(round);
		const cell = (m: Measured) => `${fmt(m.rps, 0)}, ${fmt(m.cpuMsPerRequest, 3)}`;
		row([String(round.round), round.endpoint, cell(round.mock), cell(round.again), cell(round.stubbed), `×${(round.mock.rps / round.stubbed.rps).toFixed(2)}`, `×${(round.mock.rps / round.again.rps).toFixed(2)}`, fmt(round.load1)]);
	}

	/** Goal: the median of the rounds' ratios mock ÷ stubbed ≤ ×1.05 (the stubbed mock at ≥ 0.95× the mock's rate); the control's ratios show this run's noise. */
	summary(endpoints: Endpoint[]): void {
		console.log(`\nBy endpoint: the rounds' ratios, median (middle half). Goal: mock ÷ stubbed req/s ≤ ×1.05, i.e. ≥ 0.95× the rate; mock ÷ mock again is the control, two alike servers\n`);
		head(['endpoint', 'req/s, medians: mock / again / stubbed', 'mock ÷ stubbed req/s', 'stubbed ÷ mock CPU ms/req', 'control: mock ÷ mock again req/s', 'control: again ÷ mock CPU ms/req', 'goal met?']);
		for (const endpoint of endpoints) {
			const runs = this.rounds.filter((p) => p.endpoint === endpoint.name);
			const rate = (of: (p: StubRound) => Measured) => fmt(median(runs.map((p) => of(p).rps)), 0);
			const cpu = (of: (p: StubRound) => Measured) => (runs.every((p) => p.mock.cpuMsPerRequest !== undefined && of(p).cpuMsPerRequest !== undefined) ? spread(runs.map((p) => of(p).cpuMsPerRequest! / p.mock.cpuMsPerRequest!)) : '—');
			const stubbedRates = runs.map((p) => p.mock.rps / p.stubbed.rps);
			row([
				endpoint.name,
				`${rate((p) => p.mock)} / ${rate((p) => p.again)} / ${rate((p) => p.stubbed)}`,
				spread(stubbedRates),
				cpu((p) => p.stubbed),
				spread(runs.map((p) => p.mock.rps / p.again.rps)),
				cpu((p) => p.again),
				median(stubbedRates) <= 1.05 ? 'yes' : '**no**',
			]);
		}
	}

	/** The same in one process (stub-cost.mts): each mock's median time per request, the control beside. */
	inProcess(results: InProcessCost[]): void {
		console.log(`\nIn one process, without HTTP: the three mocks asked in turn, request by request; the median time of one request\n`);
		head(['endpoint', 'requests per mock', 'mock ms', 'mock again ms', 'mock, 100 stubs ms', 'stubbed ÷ mock', 'what the stubs add, µs', 'control: again ÷ mock']);
		for (const r of results) {
			row([r.endpoint, r.requests.toLocaleString('en'), fmt(r.mockMs, 3), fmt(r.againMs, 3), fmt(r.stubbedMs, 3), `×${(r.stubbedMs / r.mockMs).toFixed(3)}`, fmt((r.stubbedMs - r.mockMs) * 1000, 1), `×${(r.againMs / r.mockMs).toFixed(3)}`]);
		}
	}
}

/** A median and the middle half of the values around it (their first and third quartiles). */
function spread(values: number[]): string {
	const sorted = [...values].sort((a, b) => a - b);
	const quartile = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))];
	return `**×${median(values).toFixed(2)}** (×${quartile(0.25).toFixed(2)}–×${quartile(0.75).toFixed(2)})`;
}
