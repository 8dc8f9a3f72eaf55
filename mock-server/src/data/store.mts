/**
 * The mock's state. The two small tables that are queried by field
 * (collections and subscribers, by account) live in @msw/data Collections
 * validated by zod schemas. Accounts are looked up by id and by token only:
 * two maps. Jobs and signals (100,000 each) live in plain arrays and maps:
 * @msw/data has no indexes, sorts only after take/skip, and creates records
 * one async call at a time, so lookups and pagination use id→record maps and
 * pre-sorted arrays instead (see README, "Data").
 */
import { Collection } from '@msw/data';
import { z } from 'zod/v4';
import { collectionSchema, type Job, type Signal, type Source } from '../base/contract.mts';
import { DOMAIN_CHANGE_TYPE, passesAccountFilters, type Account, type Dataset, type StoredCollection, type StoredJob, type Subscriber } from './model.mts';
import { JobIndex, lowerTag } from '../search/job-index.mts';
import type { SearchScope } from '../search/job-search.mts';
import { jobKey, newestFirstOrder, positionOf, signalKey, sortNewestFirst } from './order.mts';
import { DeferredLists, mergeNewestFirst } from './deferred-lists.mts';
import { STEPS_PER_TURN, type Work } from '../base/work.mts';

/**
 * One change to the store's data, as a state folder saves it: the record's new value, null once deleted.
 * `forget`: the record was created after the seed and is gone, so nothing about it need be kept.
 */
export type StoreChange =
	| { kind: 'job'; id: string; value: Job | null; forget?: boolean }
	| { kind: 'source'; id: string; value: Source }
	| { kind: 'signal'; id: string; value: Signal | null; forget?: boolean }
	| { kind: 'subscriber'; id: string; value: Subscriber };

/** Filing a job in the index (splitting its text into words) costs ~10–20 µs: 200 a turn. */
const INDEX_ADD_STEPS = STEPS_PER_TURN / 200;
const INDEX_CHECK = 32;
/** A change spliced into the per-account lists (up to 6 arrays of 100,000) costs up to ~0.3 ms: 16 a turn. */
const SPLICE_STEPS = STEPS_PER_TURN / 16;
/** Looking a job's serial up costs well under a microsecond. */
const SERIAL_STEPS = STEPS_PER_TURN / 20_000;


const storedCollectionSchema = collectionSchema.extend({
	account_id: z.string().min(1),
	source_ids: z.array(z.string()),
});
const subscriberSchema = z.object({
	account_id: z.string().min(1),
	email: z.string().min(3),
	tags: z.array(z.string()),
	created_at: z.number().int(),
});

export class Store {
	readonly collections = new Collection({ schema: storedCollectionSchema });
	readonly subscribers = new Collection({ schema: subscriberSchema });

	private tokens = new Map<string, Account>();
	private accountsById = new Map<string, Account>();
	private tracked = new Map<string, Set<string>>();
	private subscribed = new Set<string>();
	private readonly subscriberCounts = new Map<string, number>();
	readonly sources = new Map<string, Source>();
	readonly sourcesByDomain = new Map<string, Source>();
	readonly jobs = new Map<string, StoredJob>();
	/** Every job of a source, newest first. */
	readonly jobsBySource = new Map<string, StoredJob[]>();
	/**
	 * Every job of each account's tracked sources, newest first. Kept in order by a binary
	 * search on each change: rebuilding it after a cycle (a sort, or even a
	 * filter, of 100,000 scattered records) blocked for 30–230 ms. `serials` holds each
	 * job's search-index serial at the same position, so a search reads them without
	 * touching the records.
	 */
	private jobsByAccount = new Map<string, { jobs: StoredJob[]; serials: number[] }>();
	/** Job search's inverted index, kept up to date with every change (rebuilt by compactIndex). */
	index = new JobIndex();
	/** Every signal, newest first. */
	signals: Signal[] = [];
	/** Each source's signals (the signal recency rule reads them when a job goes). */
	private signalsBySource = new Map<string, Signal[]>();
	/** Former domains (a `domain-url-change` signal's previous_value) and the source that moved away from each. */
	private formerDomains = new Map<string, string>();
	/** Changes to the long sorted lists kept aside during a cycle (deferLists … applyLists). */
	private deferred: DeferredLists | undefined;
	/** Bumped on every change; caches built from the data carry the version they saw. */
	version = 0;
	private cache = new Map<string, { version: number; value: unknown }>();
	/** Told of every change a client or a cycle makes (a state folder saves them); load() is not a change. */
	onChange?: (change: StoreChange) => void;

	static async create(data: Dataset): Promise<Store> {
		const store = new Store();
		await store.load(data);
		return store;
	}

	async load(data: Dataset): Promise<void> {
		this.collections.clear();
		this.subscribers.clear();
		this.tokens.clear();
		this.accountsById.clear();
		this.tracked.clear();
		this.subscribed.clear();
		this.subscriberCounts.clear();
		this.sources.clear();
		this.sourcesByDomain.clear();
		this.jobs.clear();
		this.jobsBySource.clear();
		this.jobsByAccount.clear();
		this.index.clear();
		this.signalsBySource.clear();
		this.formerDomains.clear();
		this.cache.clear();
		await this.collections.createMany(data.collections.length, (i) => data.collections[i]);
		for (const s of data.subscribers) await this.insertSubscriber(s);
		for (const account of data.accounts) {
			this.tokens.set(account.token, account);
			this.accountsById.set(account.account_id, account);
			this.tracked.set(account.account_id, new Set(data.collections.filter((c) => c.account_id === account.account_id).flatMap((c) => c.source_ids)));
		}
		for (const source of data.sources) this.putSource(source);
		for (const job of data.jobs) this.jobs.set(job.job.job_id, job);
		for (const job of data.jobs) {
			const list = this.jobsBySource.get(job.job.source_id);
			if (list) list.push(job);
			else this.jobsBySource.set(job.job.source_id, [job]);
		}
		for (const list of this.jobsBySource.values()) sortNewestFirst(list, jobKey);
		// Records are read in the order they were made (near each other in memory), lists are then
		// built from positions: a pass over a million records newest first reads them scattered (the index: ~1.4× the CPU).
		const serials = this.index.addAll(data.jobs);
		const order = newestFirstOrder(data.jobs, jobKey);
		for (const [accountId, ids] of this.tracked) {
			const account = this.accountsById.get(accountId) as Account;
			const sees = Uint8Array.from(data.jobs, ({ job }) => (ids.has(job.source_id) && passesAccountFilters(account, job) ? 1 : 0));
			const lists: { jobs: StoredJob[]; serials: number[] } = { jobs: [], serials: [] };
			for (const i of order) {
				if (sees[i] === 0) continue;
				lists.jobs.push(data.jobs[i]);
				lists.serials.push(serials[i]);
			}
			this.jobsByAccount.set(accountId, lists);
		}
		this.signals = sortNewestFirst([...data.signals], signalKey);
		// A data set's ids are distinct (generated, or checked by data-file.mts), so each signal is new to its
		// source's list: no search of the list, which made loading grow with signals × signals per source.
		for (const signal of this.signals) this.noteSignal(signal, true);
		this.version++;
	}

	accountByToken(token: string): Account | undefined {
		return this.tokens.get(token);
	}

	accountList(): Account[] {
		return [...this.tokens.values()];
	}

	tracks(accountId: string, sourceId: string): boolean {
		return this.tracked.get(accountId)?.has(sourceId) ?? false;
	}

	/** Accounts whose collections include the source: the receivers of its signals' events. */
	trackers(sourceId: string): string[] {
		return [...this.tracked].filter(([, ids]) => ids.has(sourceId)).map(([id]) => id);
	}

	/**
	 * Whether the account sees the job: its source is tracked and the job passes the account's
	 * filters. The one rule for job lists, counts, job by id and job webhook events.
	 */
	sees(accountId: string, job: Job): boolean {
		const account = this.accountsById.get(accountId);
		return account !== undefined && this.tracks(accountId, job.source_id) && passesAccountFilters(account, job);
	}

	/** Accounts that see the job: the receivers of its events. */
	viewers(job: Job): string[] {
		return this.trackers(job.source_id).filter((accountId) => this.sees(accountId, job));
	}

	/** The source's jobs the account sees, newest first (all of them unless the account filters). */
	jobsOfSourceFor(accountId: string, sourceId: string): readonly StoredJob[] {
		const jobs = this.jobsBySource.get(sourceId) ?? [];
		const account = this.accountsById.get(accountId);
		if (account === undefined || account.filters.regions.length === 0) return jobs;
		return this.cached(`source-jobs|${accountId}|${sourceId}`, () => jobs.filter((j) => passesAccountFilters(account, j.job)));
	}

	collectionsOf(accountId: string): StoredCollection[] {
		return this.collections
			.findMany((q) => q.where({ account_id: accountId }))
			.sort((a, b) => a.collection_id.localeCompare(b.collection_id));
	}

	putSource(source: Source): void {
		const previous = this.sources.get(source.source_id);
		if (previous) this.sourcesByDomain.delete(previous.url_source);
		this.sources.set(source.source_id, source);
		this.sourcesByDomain.set(source.url_source, source);
	}

	/** A changed source (a new domain, a new job count). */
	replaceSource(source: Source): void {
		this.putSource(source);
		this.version++;
		this.onChange?.({ kind: 'source', id: source.source_id, value: source });
	}

	/** The source that moved away from this domain (its current record), if the domain is a former one. */
	movedFrom(domain: string): Source | undefined {
		const id = this.formerDomains.get(domain);
		return id === undefined ? undefined : this.sources.get(id);
	}

	/** Whether a domain is, or was, some source's: a new domain must be neither. */
	domainTaken(domain: string): boolean {
		return this.sourcesByDomain.has(domain) || this.formerDomains.has(domain);
	}

	addJob(job: StoredJob): void {
		this.jobs.set(job.job.job_id, job);
		const list = this.jobsBySource.get(job.job.source_id) ?? [];
		list.push(job);
		this.jobsBySource.set(job.job.source_id, sortNewestFirst(list, jobKey));
		const serial = this.index.add(job);
		if (this.deferred) this.deferred.addedJobs.set(job.job.job_id, job);
		else for (const { jobs, serials } of this.listsTracking(job)) {
			const place: number = positionOf(jobs, job, jobKey);
			jobs.splice(place, 0, job);
			serials.splice(place, 0, serial);
		}
		this.version++;
		this.onChange?.({ kind: 'job', id: job.job.job_id, value: job.job });
	}

	replaceJob(job: StoredJob): void {
		const previous = this.jobs.get(job.job.job_id);
		if (!previous) this.index.add(job);
		// A domain move changes only url_source and updated_at: the job's words stay (splitting them again cost half the move).
		else if (!sameIndexKeys(previous, job)) this.index.replace(previous, job);
		this.jobs.set(job.job.job_id, job);
		// An update keeps created_at and id, so the job keeps its place.
		const list = this.jobsBySource.get(job.job.source_id) ?? [];
		const at: number = positionOf(list, job, jobKey);
		if (list[at]?.job.job_id === job.job.job_id) list[at] = job;
		if (this.deferred?.addedJobs.has(job.job.job_id)) this.deferred.addedJobs.set(job.job.job_id, job);
		else for (const { jobs } of this.listsTracking(job)) {
			const place: number = positionOf(jobs, job, jobKey);
			if (jobs[place]?.job.job_id === job.job.job_id) jobs[place] = job;
		}
		this.version++;
		this.onChange?.({ kind: 'job', id: job.job.job_id, value: job.job });
	}

	/** `forget`: a job created after the seed, which a state folder need not remember (StoreChange). */
	removeJob(id: string, forget = false): void {
		const job = this.jobs.get(id);
		if (!job) return;
		this.jobs.delete(id);
		const list = this.jobsBySource.get(job.job.source_id) ?? [];
		this.jobsBySource.set(job.job.source_id, list.filter((j) => j.job.job_id !== id));
		this.index.remove(job);
		if (this.deferred) {
			if (!this.deferred.addedJobs.delete(id)) this.deferred.removedJobs.set(id, job);
		} else for (const { jobs, serials } of this.listsTracking(job)) {
			const place: number = positionOf(jobs, job, jobKey);
			if (jobs[place] !== job) continue;
			jobs.splice(place, 1);
			serials.splice(place, 1);
		}
		this.version++;
		this.onChange?.({ kind: 'job', id, value: null, forget });
	}

	/** From now on the per-account job lists and the signal list are brought up to date by applyLists (the caller holds the data gate). */
	deferLists(): void {
		this.deferred = new DeferredLists();
	}

	/** Merges what deferLists kept aside, a share per turn. */
	async applyLists(work: Work): Promise<void> {
		const deferred = this.deferred;
		this.deferred = undefined;
		if (deferred === undefined) return;
		if (!deferred.worthMerging) {
			await this.spliceIn(deferred, work);
			return;
		}
		const added = [...deferred.addedJobs.values()];
		for (const [accountId, lists] of this.jobsByAccount) {
			const seen = added.filter((j) => this.sees(accountId, j.job));
			if (seen.length === 0 && deferred.removedJobs.size === 0) continue;
			const jobs: StoredJob[] = [];
			const serials: number[] = [];
			const write = (job: StoredJob, from: number) => {
				jobs.push(job);
				serials.push(from >= 0 ? lists.serials[from] : this.index.serialOf(job.job.job_id));
			};
			await mergeNewestFirst(lists.jobs, seen, deferred.removedJobs, jobKey, write, work);
			lists.jobs = jobs;
			lists.serials = serials;
		}
		if (deferred.addedSignals.size > 0 || deferred.removedSignals.size > 0) {
			const signals: Signal[] = [];
			await mergeNewestFirst(this.signals, [...deferred.addedSignals.values()], deferred.removedSignals, signalKey, (signal) => signals.push(signal), work);
			this.signals = signals;
		}
		this.version++;
	}

	/** A few changes kept aside, each spliced in where it belongs (as without deferLists). */
	private async spliceIn(deferred: DeferredLists, work: Work): Promise<void> {
		for (const job of deferred.removedJobs.values()) {
			for (const { jobs, serials } of this.listsTracking(job)) {
				const place: number = positionOf(jobs, job, jobKey);
				if (jobs[place]?.job.job_id !== job.job.job_id) continue;
				jobs.splice(place, 1);
				serials.splice(place, 1);
			}
			await work.spend(SPLICE_STEPS);
		}
		for (const job of deferred.addedJobs.values()) {
			const serial = this.index.serialOf(job.job.job_id);
			for (const { jobs, serials } of this.listsTracking(job)) {
				const place: number = positionOf(jobs, job, jobKey);
				jobs.splice(place, 0, job);
				serials.splice(place, 0, serial);
			}
			await work.spend(SPLICE_STEPS);
		}
		for (const signal of deferred.removedSignals.values()) {
			const at: number = positionOf(this.signals, signal, signalKey);
			if (this.signals[at]?.signal_id === signal.signal_id) this.signals.splice(at, 1);
			await work.spend(SPLICE_STEPS);
		}
		for (const signal of deferred.addedSignals.values()) {
			this.signals.splice(positionOf(this.signals, signal, signalKey), 0, signal);
			await work.spend(SPLICE_STEPS);
		}
		this.version++;
	}

	/**
	 * Rebuilds the search index from the jobs there are, a share per turn (the caller holds the data
	 * gate). A deleted job's serial stays in the index's lists (job-index.mts remove); once they
	 * are more than a quarter of the live ones the index is rebuilt (~1–2 s of work at 100,000 jobs,
	 * in slices), so it holds at most 1.25 times the jobs there are.
	 */
	async compactIndex(work: Work): Promise<void> {
		if (this.index.size - this.index.live <= this.index.live / 4) return;
		const index = new JobIndex();
		let added = 0;
		for (const job of this.jobs.values()) {
			index.add(job);
			if (++added % INDEX_CHECK === 0) await work.spend(INDEX_CHECK * INDEX_ADD_STEPS);
		}
		for (const lists of this.jobsByAccount.values()) {
			lists.serials = lists.jobs.map((j) => index.serialOf(j.job.job_id));
			await work.spend(lists.jobs.length * SERIAL_STEPS);
		}
		this.index = index;
		this.version++;
	}

	/** A new signal, or a new value of one (same id and created_at, so the same place). */
	putSignal(signal: Signal): void {
		const at: number = positionOf(this.signals, signal, signalKey);
		if (this.signals[at]?.signal_id === signal.signal_id) this.signals[at] = signal;
		else if (this.deferred) this.deferred.addedSignals.set(signal.signal_id, signal);
		else this.signals.splice(at, 0, signal);
		this.noteSignal(signal);
		this.version++;
		this.onChange?.({ kind: 'signal', id: signal.signal_id, value: signal });
	}

	/** Takes a signal away (a created one past the cap, cycles/cycle.mts); its former domain goes with it. */
	removeSignal(gone: Pick<Signal, 'signal_id' | 'created_at' | 'source_id'>): void {
		const at: number = positionOf(this.signals, gone, signalKey);
		const deferred = this.deferred?.addedSignals.get(gone.signal_id);
		const signal = deferred ?? this.signals[at];
		if (signal?.signal_id !== gone.signal_id) return;
		if (deferred) this.deferred?.addedSignals.delete(gone.signal_id);
		else if (this.deferred) this.deferred.removedSignals.set(gone.signal_id, signal);
		else this.signals.splice(at, 1);
		const list = this.signalsBySource.get(signal.source_id) ?? [];
		const inList = list.findIndex((s) => s.signal_id === signal.signal_id);
		if (inList >= 0) list.splice(inList, 1);
		if (signal.info.type === DOMAIN_CHANGE_TYPE && this.formerDomains.get(signal.previous_value) === signal.source_id) this.formerDomains.delete(signal.previous_value);
		this.version++;
		this.onChange?.({ kind: 'signal', id: signal.signal_id, value: null, forget: true });
	}

	/** The source's signals (the list is the store's: read it, do not change it). */
	signalsOfSource(sourceId: string): readonly Signal[] {
		return this.signalsBySource.get(sourceId) ?? [];
	}

	private noteSignal(signal: Signal, isNew = false): void {
		const list = this.signalsBySource.get(signal.source_id) ?? [];
		const at = isNew ? -1 : list.findIndex((s) => s.signal_id === signal.signal_id);
		if (at >= 0) list[at] = signal;
		else list.push(signal);
		this.signalsBySource.set(signal.source_id, list);
		// A domain both current and former is answered as current: lookups try sourcesByDomain first.
		if (signal.info.type === DOMAIN_CHANGE_TYPE && signal.previous_value !== '') this.formerDomains.set(signal.previous_value, signal.source_id);
	}

	/**
	 * The account's jobs (all its tracked sources), newest first; cached until the data
	 * changes. A new array each time, never changed afterwards: a search may read it
	 * slice by slice while a cycle changes the store.
	 */
	jobsOf(accountId: string): readonly StoredJob[] {
		return this.cached(`jobs|${accountId}`, () => (this.jobsByAccount.get(accountId)?.jobs ?? []).slice());
	}

	/** The search-index serials of jobsOf(accountId), position for position (same caching, same snapshot rule). */
	jobSerialsOf(accountId: string): Int32Array {
		return this.cached(`serials|${accountId}`, () => Int32Array.from(this.jobsByAccount.get(accountId)?.serials ?? []));
	}

	/** What job search reads for the account: its jobs, their serials and the index. */
	searchScopeOf(accountId: string): SearchScope {
		return { jobs: this.jobsOf(accountId), serials: this.jobSerialsOf(accountId), index: this.index, sourcesIn: (tags) => this.sourcesInIndustries(tags) };
	}

	/** Ids of the sources with any of the (lower-cased) industry tags: a pass over the sources (2,000 by default), no job read. */
	private sourcesInIndustries(tags: ReadonlySet<string>): Set<string> {
		const ids = new Set<string>();
		for (const source of this.sources.values()) if (source.industry_tags.some((t) => tags.has(lowerTag(t)))) ids.add(source.source_id);
		return ids;
	}

	/** The per-account job lists that hold (or should hold) this job. */
	private listsTracking(job: StoredJob): { jobs: StoredJob[]; serials: number[] }[] {
		return this.viewers(job.job).flatMap((accountId) => {
			const lists = this.jobsByAccount.get(accountId);
			return lists ? [lists] : [];
		});
	}

	/** The account's signals under one node of the hierarchy, filtered; cached until the data changes. */
	signalsOf(accountId: string, filter: { group: string; category?: string; type?: string; directOnly: boolean; activeOnly: boolean }): Signal[] {
		const key = `signals|${accountId}|${filter.group}|${filter.category ?? ''}|${filter.type ?? ''}|${filter.directOnly}|${filter.activeOnly}`;
		return this.cached(key, () => {
			const ids = this.tracked.get(accountId) ?? new Set<string>();
			return this.signals.filter(
				(s) =>
					s.info.group === filter.group &&
					(filter.category === undefined || s.info.category === filter.category) &&
					(filter.type === undefined || s.info.type === filter.type) &&
					(!filter.directOnly || s.signal_classification === 'direct') &&
					(!filter.activeOnly || s.signal_recency === 'active') &&
					ids.has(s.source_id),
			);
		});
	}

	/** How many subscribers the account has. */
	subscriberCount(accountId: string): number {
		return this.subscriberCounts.get(accountId) ?? 0;
	}

	isSubscribed(accountId: string, email: string): boolean {
		return this.subscribed.has(`${accountId}\n${email.toLowerCase()}`);
	}

	/**
	 * Adds those not subscribed yet, then reports them all in one synchronous step, so that a
	 * state folder saves them in one transaction: an upload is saved whole or not at all.
	 */
	async addSubscribers(subscribers: readonly Subscriber[]): Promise<void> {
		const added: Subscriber[] = [];
		for (const subscriber of subscribers) {
			// Checked again here: another upload of the same address may have added it while this one waited.
			if (this.isSubscribed(subscriber.account_id, subscriber.email)) continue;
			await this.insertSubscriber(subscriber);
			added.push(subscriber);
		}
		for (const subscriber of added) {
			this.onChange?.({ kind: 'subscriber', id: `${subscriber.account_id}\n${subscriber.email.toLowerCase()}`, value: subscriber });
		}
	}

	private async insertSubscriber(subscriber: Subscriber): Promise<void> {
		await this.subscribers.create(subscriber);
		this.subscribed.add(`${subscriber.account_id}\n${subscriber.email.toLowerCase()}`);
		this.subscriberCounts.set(subscriber.account_id, this.subscriberCount(subscriber.account_id) + 1);
	}

	subscribersOf(accountId: string): Subscriber[] {
		return this.subscribers.findMany((q) => q.where({ account_id: accountId }));
	}

	jobById(id: string): Job | undefined {
		return this.jobs.get(id)?.job;
	}

	cached<T>(key: string, build: () => T): T {
		const hit = this.cache.get(key);
		if (hit && hit.version === this.version) return hit.value as T;
		const value = build();
		this.cache.set(key, { version: this.version, value });
		return value;
	}
}

/** Whether the index would file both values of a job under the same keys (job-index.mts keysOf). */
function sameIndexKeys(a: StoredJob, b: StoredJob): boolean {
	return a.text === b.text && a.places === b.places && a.job.categories === b.job.categories && a.job.job_tags === b.job.job_tags && a.job.source_id === b.job.source_id;
}
