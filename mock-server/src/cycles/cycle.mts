/**
 * A cycle (what the service does every ~6 hours): some jobs are created,
 * some updated (a title change: updated_at moves), some deleted (deleted_at
 * set on the event's job), new signals appear, and (when asked) sources move
 * to a new domain. A cycle does several of each; `one` does a single chosen
 * change (POST /__mock/events). Both return one event per account that sees
 * the changed job (Store.viewers: tracks its source, passes the account's
 * filters) or tracks the signal's source.
 *
 * Realism rules kept on every change (mock-server/README.md, "Data": its Processing rules):
 * - a source's count_jobboard_jobs is its job count, and
 *   count_jobbard_jobs_success_at the time of the change that set it;
 * - a domain move (`domain_changes`, or a signal event asked for with type
 *   domain-url-change; never a random signal) changes url_source on the source and its jobs (updated_at
 *   moves, no job_updated events: the job did not change on its board), keeps
 *   source_id, and adds a direct, active `domain-url-change` signal from the old
 *   domain to the new one;
 * - a signal whose jobs_list jobs have all been deleted turns inactive (its
 *   evidence is gone); it keeps its place and dates, and sends no event.
 *
 * Bounded (the mock's own rule; the spec shows none): at most `maxCreated` jobs
 * and as many signals created after the seed are kept. Past that, each new one
 * retires the oldest created one of its kind: a job through the usual deletion
 * (job_deleted events, its source's count, its signals' recency), a signal
 * taken out of the lists (the spec has no event for a signal that goes). Seed
 * records are never retired.
 *
 * A cycle of 1,000 changes of each kind is ~10,000 record writes: done in one
 * go it held the event loop 2–3 s. Every write is counted (`Work`, a share per
 * turn: data/data-gate.mts) and the cycle gives the loop up once a turn's share is
 * spent; the caller holds the data gate (DataGate, data/data-gate.mts) so that no reader sees
 * half a cycle, and has the store merge its long lists at the end (Store.deferLists)
 * and rebuild the search index when it is due (Store.compactIndex). The draws and changes are the same as in one go, in the same order.
 */
import { CHOICES, type Job, type Signal, type Source, unhandled, WEBHOOK_EVENTS, type WebhookEventType } from '../base/contract.mts';
import { ALL_TYPES, jobRef, makeJob, makeSignal, placeText, searchText, type SignalPlace } from '../data/generate.mts';
import { TLDS } from '../data/vocabulary.mts';
import { DOMAIN_CHANGE_TYPE, type StoredJob } from '../data/model.mts';
import { Random } from '../data/random.mts';
import type { Store } from '../data/store.mts';
import type { CycleEvent } from '../webhooks/envelope.mts';
import type { Work } from '../base/work.mts';
import { READ_STEPS, WRITE_STEPS } from '../data/data-gate.mts';

export interface CycleSizes {
	created: number;
	updated: number;
	deleted: number;
	signals: number;
	/** Sources moved to a new domain. */
	domain_changes: number;
}

/** Domain moves are rare: the usual cycle makes none; a test or a client asks for them. */
export const DEFAULT_CYCLE: CycleSizes = { created: 5, updated: 3, deleted: 2, signals: 3, domain_changes: 0 };

const DOMAIN_MOVE = ALL_TYPES.find((t) => t.type === DOMAIN_CHANGE_TYPE) as SignalPlace;
/** A cycle's new signals: a domain change is only ever a real move (`domain_changes`, or one asked for by type). */
const CYCLE_SIGNAL_TYPES = ALL_TYPES.filter((t) => t !== DOMAIN_MOVE);

/** One chosen change (POST /__mock/events): what is not named is picked at random. */
export interface ChosenChange {
	event_type: WebhookEventType;
	/** Only for job_updated and job_deleted. */
	job_id?: string;
	source_id?: string;
	/** Only for signal: its place in the hierarchy. */
	signal?: { group: string; category: string; type: string };
}

/** A named source or job that does not exist (the control routes answer 404). */
export class UnknownRecord extends Error {}

/**
 * Where the cycle runner stands. A state folder saves it with each change, so a
 * restarted mock neither hands out an id twice nor repeats the same changes.
 */
export interface CyclePosition {
	jobSerial: number;
	signalSerial: number;
	lastTime: number;
	random: number;
}

/**
 * The serial the seed's records reach, of each kind (created ones are numbered past it: `seedSerial`), and the cap
 * on created ones.
 */
export interface CreatedBounds {
	seedJobs: number;
	seedSignals: number;
	/** Created jobs kept, and created signals kept (each kind on its own). */
	maxCreated: number;
}

type SignalKey = Pick<Signal, 'signal_id' | 'created_at' | 'source_id'>;

export class CycleRunner {
	private random: Random;
	private jobSerial: number;
	private signalSerial: number;
	private lastTime = 0;
	/** The created jobs and signals there are, oldest first: the first goes once there are more than maxCreated. */
	private readonly createdJobs = new Set<string>();
	private readonly createdSignals = new Map<string, SignalKey>();

	constructor(
		private readonly store: Store,
		seed: number,
		private readonly nowSeconds: () => number,
		private readonly bounds: CreatedBounds,
		saved?: CyclePosition,
	) {
		this.random = new Random(saved?.random ?? seed ^ 0x5eed);
		this.jobSerial = saved?.jobSerial ?? bounds.seedJobs;
		this.signalSerial = saved?.signalSerial ?? bounds.seedSignals;
		this.lastTime = saved?.lastTime ?? 0;
		// After a restart the created records are the restored ones numbered past the seed's, in the order of their numbers.
		for (const id of createdIds(store.jobs.keys(), 'job_', bounds.seedJobs)) this.createdJobs.add(id);
		const signals = new Map(store.signals.map((s) => [s.signal_id, s]));
		for (const id of createdIds(signals.keys(), 'sig_', bounds.seedSignals)) {
			const { signal_id, created_at, source_id } = signals.get(id) as Signal;
			this.createdSignals.set(id, { signal_id, created_at, source_id });
		}
	}

	position(): CyclePosition {
		return { jobSerial: this.jobSerial, signalSerial: this.signalSerial, lastTime: this.lastTime, random: this.random.position };
	}

	/**
	 * A cycle over every source, or only over the named one (its jobs and signals). The caller holds
	 * the data gate: the cycle pauses between turns (`work`), and nothing else may change the data meanwhile.
	 */
	async run(work: Work, sizes: CycleSizes = DEFAULT_CYCLE, sourceId?: string): Promise<CycleEvent[]> {
		const { store, random } = this;
		const source = sourceId === undefined ? undefined : this.sourceNamed(sourceId);
		const sources = source ? [source] : [...store.sources.values()];
		if (sources.length === 0) return [];
		const now = this.tick();
		const events: CycleEvent[] = [];
		const each = async <T,>(items: readonly T[], change: (item: T) => Promise<CycleEvent[]>) => {
			for (const item of items) events.push(...(await change(item)));
		};
		for (let i = 0; i < sizes.created; i++) events.push(...(await this.create(random.pick(sources), now, work)));
		await each(await this.sampleJobs(source, sizes.updated, work), (old) => this.update(old, now, work));
		await each(await this.sampleJobs(source, sizes.deleted, work), (gone) => this.remove(gone, now, work));
		// The current record: `sources` holds the one from before an earlier move or count.
		const current = () => this.sourceNamed(random.pick(sources).source_id);
		for (let i = 0; i < sizes.signals; i++) events.push(...(await this.signal(current(), now, work)));
		for (let i = 0; i < sizes.domain_changes; i++) events.push(...(await this.moveDomain(current(), now, work)));
		return events;
	}

	/** One chosen change; the caller holds the data gate, as for run(). */
	async one(change: ChosenChange, work: Work): Promise<CycleEvent[]> {
		const source = change.source_id === undefined ? undefined : this.sourceNamed(change.source_id);
		const type = change.event_type;
		switch (type) {
			case 'job_updated':
			case 'job_deleted': {
				const job = await this.jobFor(change.job_id, source, work);
				const now = this.tick();
				return type === 'job_updated' ? this.update(job, now, work) : this.remove(job, now, work);
			}
			case 'job_created':
			case 'signal': {
				const where = source ?? this.random.pick([...this.store.sources.values()]);
				if (where === undefined) throw new UnknownRecord('The data set has no sources');
				const { signal } = change;
				const place = signal && ALL_TYPES.find((t) => t.group === signal.group && t.category === signal.category && t.type === signal.type);
				if (signal && !place) throw new UnknownRecord(`No signal type ${signal.group}/${signal.category}/${signal.type}`);
				const now = this.tick();
				return type === 'job_created' ? this.create(where, now, work) : this.signal(where, now, work, place);
			}
			default:
				return unhandled(type);
		}
	}

	private sourceNamed(id: string): Source {
		const source = this.store.sources.get(id);
		if (!source) throw new UnknownRecord(`No source with id "${id}"`);
		return source;
	}

	/** The named job, else a random one (of the source, when one is named). */
	private async jobFor(jobId: string | undefined, source: Source | undefined, work: Work): Promise<StoredJob> {
		if (jobId !== undefined) {
			const job = this.store.jobs.get(jobId);
			if (!job) throw new UnknownRecord(`No job with id "${jobId}" (a deleted job is gone)`);
			return job;
		}
		const [job] = await this.sampleJobs(source, 1, work);
		if (!job) throw new UnknownRecord(source ? `Source "${source.source_id}" has no jobs left` : 'The data set has no jobs left');
		return job;
	}

	/** `count` distinct jobs drawn at random: the source's, or of the whole data set (read out of the map, not copied). */
	private async sampleJobs(source: Source | undefined, count: number, work: Work): Promise<StoredJob[]> {
		const { store, random } = this;
		if (source) return random.sample(store.jobsBySource.get(source.source_id) ?? [], count);
		return valuesAt(store.jobs, random.samplePlaces(store.jobs.size, count), work);
	}

	/** Strictly increasing per call, so new jobs are the newest even within one second. */
	private tick(): number {
		this.lastTime = Math.max(this.nowSeconds(), this.lastTime + 1);
		return this.lastTime;
	}

	/** A job's events go to the accounts that see it, a signal's to those that track its source. */
	private emit(type: WebhookEventType, data: Job | Signal): CycleEvent[] {
		const carries = WEBHOOK_EVENTS[type].carries;
		const receivers = carries === 'signal' ? this.store.trackers(data.source_id) : carries === 'job' ? this.store.viewers(data as Job) : unhandled(carries);
		return receivers.map((account_id) => ({ account_id, event_type: type, event_data: data }));
	}

	/** Counts the record writes made since `before` (the store's version moves once per write); pauses once a turn's share is spent. */
	private async wrote(before: number, work: Work): Promise<void> {
		await work.spend((this.store.version - before) * WRITE_STEPS);
	}

	private async create(source: Source, now: number, work: Work): Promise<CycleEvent[]> {
		const before = this.store.version;
		const stored = makeJob(this.random, ++this.jobSerial, source, now);
		stored.job.updated_at = now;
		this.store.addJob(stored);
		this.createdJobs.add(stored.job.job_id);
		this.recount(source.source_id, now);
		const events = this.emit('job_created', stored.job);
		await this.wrote(before, work);
		if (this.createdJobs.size <= this.bounds.maxCreated) return events;
		const oldest = this.store.jobs.get(this.createdJobs.values().next().value as string) as StoredJob;
		return [...events, ...(await this.remove(oldest, now, work))];
	}

	private async update(old: StoredJob, now: number, work: Work): Promise<CycleEvent[]> {
		const before = this.store.version;
		const job: Job = { ...old.job, job_title: `${old.job.job_title} (updated)`, updated_at: now };
		this.store.replaceJob({ job, text: searchText(job), places: placeText(job) });
		const events = this.emit('job_updated', job);
		await this.wrote(before, work);
		return events;
	}

	private async remove(gone: StoredJob, now: number, work: Work): Promise<CycleEvent[]> {
		const before = this.store.version;
		this.store.removeJob(gone.job.job_id, this.createdJobs.delete(gone.job.job_id));
		this.recount(gone.job.source_id, now);
		await this.wrote(before, work);
		if (CHOICES.signalInactiveWhenEvidenceJobsGone) await this.retireSignalsOf(gone.job, work);
		return this.emit('job_deleted', { ...gone.job, updated_at: now, deleted_at: now });
	}

	private async signal(source: Source, now: number, work: Work, place?: SignalPlace): Promise<CycleEvent[]> {
		const where = place ?? this.random.pick(CYCLE_SIGNAL_TYPES);
		if (where === DOMAIN_MOVE) return this.moveDomain(source, now, work);
		const before = this.store.version;
		const jobs = (this.store.jobsBySource.get(source.source_id) ?? []).map((j) => jobRef(j.job));
		const signal = makeSignal(this.random, ++this.signalSerial, source, jobs, now, where);
		this.store.putSignal(signal);
		const events = this.emit('signal', signal);
		await this.wrote(before, work);
		await this.keepCreatedSignal(signal, work);
		return events;
	}

	/** Counts a new signal among the created ones; past the cap the oldest created one goes. */
	private async keepCreatedSignal(signal: Signal, work: Work): Promise<void> {
		this.createdSignals.set(signal.signal_id, { signal_id: signal.signal_id, created_at: signal.created_at, source_id: signal.source_id });
		if (this.createdSignals.size <= this.bounds.maxCreated) return;
		const [id, oldest] = this.createdSignals.entries().next().value as [string, SignalKey];
		this.createdSignals.delete(id);
		this.store.removeSignal(oldest);
		await work.spend(WRITE_STEPS);
	}

	/** The source's job count, as of now. */
	private recount(sourceId: string, now: number): void {
		const source = this.sourceNamed(sourceId);
		const count = this.store.jobsBySource.get(sourceId)?.length ?? 0;
		this.store.replaceSource({ ...source, count_jobboard_jobs: count, count_jobbard_jobs_success_at: now });
	}

	/** The source's active signals that named the deleted job and whose every job is now gone turn inactive. */
	private async retireSignalsOf(gone: Job, work: Work): Promise<void> {
		for (const signal of this.store.signalsOfSource(gone.source_id).slice()) {
			if (signal.signal_recency !== 'active' || !signal.jobs_list.some((j) => j.job_id === gone.job_id)) continue;
			if (signal.jobs_list.every((j) => !this.store.jobs.has(j.job_id))) {
				this.store.putSignal({ ...signal, signal_recency: 'inactive' });
				await work.spend(WRITE_STEPS);
			}
		}
	}

	private async moveDomain(source: Source, now: number, work: Work): Promise<CycleEvent[]> {
		const from = source.url_source;
		const to = this.newDomain(from);
		const moved: Source = { ...source, url_source: to, url_logo: `https://logo.example.com/${to}.png`, updated_at: now };
		this.store.replaceSource(moved);
		await work.spend(WRITE_STEPS);
		for (const old of (this.store.jobsBySource.get(source.source_id) ?? []).slice()) {
			this.store.replaceJob({ ...old, job: { ...old.job, url_source: to, updated_at: now } });
			await work.spend(WRITE_STEPS);
		}
		const before = this.store.version;
		const jobs = (this.store.jobsBySource.get(source.source_id) ?? []).map((j) => jobRef(j.job));
		const signal: Signal = {
			...makeSignal(this.random, ++this.signalSerial, moved, jobs, now, DOMAIN_MOVE, { previous: from, current: to }),
			evidence_list: [`"...${from} now redirects to ${to}..."`],
			signal_classification: 'direct',
			signal_recency: 'active',
		};
		this.store.putSignal(signal);
		const events = this.emit('signal', signal);
		await this.wrote(before, work);
		await this.keepCreatedSignal(signal, work);
		return events;
	}

	/** A domain no source has or had: the old name's first label with a number, under a drawn top-level domain. */
	private newDomain(from: string): string {
		const name = from.split('.')[0].replace(/-\d+$/, '');
		for (let n = 2; ; n++) {
			const domain = `${name}-${n}.${this.random.pick(TLDS)}`;
			if (!this.store.domainTaken(domain)) return domain;
		}
	}
}

/**
 * The map's values at the given places (in its order), in the order the places are given. One walk
 * over the map, a share per turn, and no copy of it: copying 100,000 jobs into an array to sample
 * three was the biggest cost of a cycle.
 */
async function valuesAt<T>(map: ReadonlyMap<string, T>, places: readonly number[], work: Work): Promise<T[]> {
	const out = new Array<T>(places.length);
	const ascending = places.map((place, n) => ({ place, n })).sort((x, y) => x.place - y.place);
	const values = map.values();
	let at = 0;
	for (const { place, n } of ascending) {
		// The walk to the next place, in synchronous runs of READ_CHECK (a loop with an await in it runs slower).
		while (at < place) {
			const run = Math.min(place - at, READ_CHECK);
			for (let i = 0; i < run; i++) values.next();
			at += run;
			await work.spend(run * READ_STEPS);
		}
		out[n] = values.next().value as T;
		at++;
	}
	return out;
}

const READ_CHECK = 1024;

/**
 * The serial a data set's ids reach: its size, or the highest `<prefix><number>` among them if higher (a
 * `--data` file may hold ids of the mock's own form, as a clone of a mock does), so a created id is never one of them.
 */
export function seedSerial(ids: readonly string[], prefix: string): number {
	let highest = ids.length;
	for (const id of ids) {
		if (!id.startsWith(prefix) || !/^\d+$/.test(id.slice(prefix.length))) continue;
		const serial = Number(id.slice(prefix.length));
		if (Number.isSafeInteger(serial) && serial > highest) highest = serial;
	}
	return highest;
}

/** The ids of the form `<prefix><number>` numbered past the seed's, in the order of their numbers (the order they were created in). */
function createdIds(ids: Iterable<string>, prefix: string, seedCount: number): string[] {
	const created: { id: string; serial: number }[] = [];
	for (const id of ids) {
		if (!id.startsWith(prefix)) continue;
		const serial = Number(id.slice(prefix.length));
		if (Number.isInteger(serial) && serial > seedCount) created.push({ id, serial });
	}
	return created.sort((a, b) => a.serial - b.serial).map((c) => c.id);
}
