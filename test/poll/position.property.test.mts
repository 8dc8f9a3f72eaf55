// The poll position under random lists (fast-check): shared seconds, items added and deleted between polls,
// walks cut after a random number of pages. pollNew runs against an in-memory list of each paging kind.
import fc from 'fast-check';
import type { IPollFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';
import type { Feed, FeedPage } from '../../nodes/JobSignalsPollTrigger/feeds.ts';
import { pollNew } from '../../nodes/JobSignalsPollTrigger/poll-new.ts';
import { jsonBytes, STATE_BOUNDS, type Keyed, type PollState, type StateBounds } from '../../nodes/JobSignalsPollTrigger/position.ts';
import { TimeBudget } from '../../nodes/JobSignalsPollTrigger/read-down.ts';
import type { PageQuery } from '../../nodes/shared/pages/list-kinds.ts';

interface Row {
	id: string;
	created: number;
	/** Where the item sits among its second's: random, so nothing relies on the order within a second being by id. */
	rank: number;
}

const PAGE = 5;
const before = (a: Row, b: Row) => b.created - a.created || a.rank - b.rank;

/** A list of one paging kind over `rows` (newest first, as the service lists): offsets, page numbers, or a cursor naming the last item read. */
function feedOver(kind: Feed['kind'], rows: () => Row[], known: Map<string, Row>): Feed {
	const first: PageQuery = kind === 'offset' ? { offset: 0 } : kind === 'page' ? { page: 1, per_page: PAGE } : {};
	const keyed = (row: Row): Keyed => ({ id: row.id, created: row.created, item: { id: row.id } });
	const read = (position: PageQuery): FeedPage => {
		const list = rows();
		let start = 0;
		if (kind === 'offset') start = Number(position.offset);
		else if (kind === 'page') start = (Number(position.page) - 1) * PAGE;
		else if (position.cursor !== undefined) {
			// The cursor's item may be gone: the page starts after its place.
			const cursor = known.get(String(position.cursor))!;
			start = list.filter((row) => before(row, cursor) <= 0).length;
		}
		const items = list.slice(start, start + PAGE);
		const more = start + PAGE < list.length;
		const next = !more ? undefined : kind === 'offset' ? { ...position, offset: start + PAGE } : kind === 'page' ? { ...position, page: Number(position.page) + 1 } : { cursor: items[items.length - 1].id };
		return { items: items.map(keyed), next };
	};
	return { kind, pageSize: PAGE, key: 'property', first, sample: first, reader: () => ({ read: async (position) => read(position) }) };
}

/** A budget spent after `pages` pages of the poll (Infinity: never). */
class PageBudget extends TimeBudget {
	private read = 0;
	constructor(private readonly pages: number) {
		super(60_000);
	}
	override async time<T>(work: Promise<T>): Promise<T> {
		this.read++;
		return await work;
	}
	override spent(): boolean {
		return this.read >= this.pages;
	}
}

interface Step {
	/** New items: how many seconds after the newest item so far each lands on (several share one). */
	added: number[];
	/** Items deleted before the poll: indexes into the list (modulo its length). */
	deleted: number[];
	/** Pages the poll may read before its budget is spent (0: unlimited). */
	pages: number;
}

const stepArb = (maxPerBatch: number) =>
	fc.record({
		added: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: maxPerBatch }),
		deleted: fc.array(fc.nat(), { maxLength: 3 }),
		pages: fc.integer({ min: 0, max: 4 }),
	});

const scenarioArb = (maxPerBatch: number) =>
	fc.record({
		kind: fc.constantFrom<Feed['kind']>('offset', 'page', 'cursor'),
		initial: fc.array(fc.integer({ min: 0, max: 8 }), { maxLength: 30 }),
		steps: fc.array(stepArb(maxPerBatch), { minLength: 1, maxLength: 12 }),
		ranks: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 50 }),
	});

interface Scenario {
	kind: Feed['kind'];
	initial: number[];
	steps: Step[];
	/** The ranks new items take, in turn. */
	ranks: number[];
}

/** Runs the polls; what each item came out as, and the states written. */
async function run({ kind, initial, steps, ranks }: Scenario, bounds: StateBounds) {
	let serial = 0;
	const known = new Map<string, Row>();
	let rows: Row[] = [];
	const make = (created: number) => {
		serial++;
		const row = { id: `i${serial}`, created, rank: ranks[serial % ranks.length] + serial / 1e6 };
		known.set(row.id, row);
		return row;
	};
	rows = initial.map((offset) => make(1000 + offset)).sort(before);
	let horizon = Math.max(1000, ...rows.map((r) => r.created));
	const feed = feedOver(kind, () => rows, known);
	const context = {} as IPollFunctions;
	const emitted = new Map<string, number>();
	const added = new Set<string>();
	const states: PollState[] = [];
	let deletions = 0;
	const poll = async (state: PollState | undefined, pages: number) => {
		const result = await pollNew(context, feed, state, false, new PageBudget(pages === 0 ? Infinity : pages), bounds);
		for (const item of result.emitted) emitted.set(item.id, (emitted.get(item.id) ?? 0) + 1);
		states.push(result.state);
		return result.state;
	};
	let state = await poll(undefined, 0);
	for (const step of steps) {
		// New items are newer than anything the list held so far (an older created_at is a late item: not promised).
		const batch = step.added.map((after) => make(horizon + after));
		horizon = Math.max(horizon, ...batch.map((r) => r.created));
		for (const row of batch) added.add(row.id);
		for (const index of step.deleted) {
			if (rows.length === 0) break;
			rows.splice(index % rows.length, 1);
			deletions++;
		}
		rows = [...rows, ...batch].sort(before);
		state = await poll(state, step.pages);
	}
	// Unlimited polls until the backlog is drained (a full backlog is drained before the top is read again).
	for (let i = 0; i < bounds.segments + 2; i++) state = await poll(state, 0);
	const present = new Set(rows.map((r) => r.id));
	return { emitted, added, present, states, deletions, backlog: state.backlog.length };
}

function expectWithinBounds(states: PollState[], bounds: StateBounds) {
	for (const state of states) {
		expect(Buffer.byteLength(JSON.stringify(state))).toBeLessThanOrEqual(bounds.stateBytes);
		expect(state.backlog.length).toBeLessThanOrEqual(bounds.segments);
		for (const mark of [state.top, ...state.backlog.map((s) => s.below)]) {
			if (!mark) continue;
			expect(mark.ids.length).toBeLessThanOrEqual(bounds.markIds);
			expect(mark.ids.reduce((sum, id) => sum + jsonBytes(id), 0)).toBeLessThanOrEqual(bounds.markIdBytes);
		}
		for (const segment of state.backlog) {
			expect(segment.above.ids.reduce((sum, id) => sum + jsonBytes(id), 0)).toBeLessThanOrEqual(bounds.windowIdBytes);
			expect(jsonBytes(segment.resume)).toBeLessThanOrEqual(bounds.resumeBytes);
		}
	}
}

describe('poll position: properties (fast-check)', () => {
	// numRuns and seed are fixed so a failure is reproduced by running the test again.
	it('with the shipped bounds: each new item exactly once (or not at all, if deleted before a poll read it); nothing old; the state within its bound', async () => {
		await fc.assert(
			fc.asyncProperty(scenarioArb(12), async (scenario) => {
				const { emitted, added, present, states, backlog } = await run(scenario, STATE_BOUNDS);
				for (const [id, count] of emitted) {
					expect(added.has(id), `${id} is not new`).toBe(true);
					expect(count, `${id} emitted ${count} times`).toBe(1);
				}
				for (const id of added) if (present.has(id)) expect(emitted.get(id), `${id} lost`).toBe(1);
				expect(backlog).toBe(0);
				expectWithinBounds(states, STATE_BOUNDS);
			}),
			{ numRuns: 300, seed: 20261128 },
		);
	});

	// Bounds small enough that seconds outgrow the Mark and the windows: segments resume inside such a second.
	const TINY: StateBounds = { ...STATE_BOUNDS, markIds: 3, markIdBytes: 24, windowIdBytes: 16, resumeBytes: 32, segments: 2 };

	it('with bounds the seconds outgrow: never lost; exactly once without deletions; the state within its bound', async () => {
		await fc.assert(
			fc.asyncProperty(scenarioArb(25), async (scenario) => {
				const { emitted, added, present, states, deletions, backlog } = await run(scenario, TINY);
				for (const id of emitted.keys()) expect(added.has(id), `${id} is not new`).toBe(true);
				for (const id of added) if (present.has(id)) expect(emitted.get(id) ?? 0, `${id} lost`).toBeGreaterThanOrEqual(1);
				// With deletions, a window whose items were all deleted sends its second again (at least once): see read-down.ts.
				if (deletions === 0) for (const [id, count] of emitted) expect(count, `${id} emitted ${count} times`).toBe(1);
				expect(backlog).toBe(0);
				expectWithinBounds(states, TINY);
			}),
			{ numRuns: 300, seed: 20261128 },
		);
	});
});
