/**
 * One processing cycle (what the service does every ~6 hours): some jobs are
 * created, some updated (a title change: updated_at moves), some deleted
 * (deleted_at set on the event's job), and new signals appear. Returns one
 * event per account that tracks the event's source.
 */
import type { Job, Signal } from '../contract/schemas';
import type { WebhookEventType } from '../contract/events';
import { makeJob, makeSignal, placeText, searchText } from '../data/generate';
import { Random } from '../data/random';
import type { Store } from '../data/store';
import type { CycleEvent } from '../webhooks/envelope';

export interface CycleSizes {
	created: number;
	updated: number;
	deleted: number;
	signals: number;
}

export const DEFAULT_CYCLE: CycleSizes = { created: 5, updated: 3, deleted: 2, signals: 3 };

export class Processor {
	private random: Random;
	private jobSerial: number;
	private signalSerial: number;
	private lastTime = 0;

	constructor(
		private readonly store: Store,
		seed: number,
		private readonly nowSeconds: () => number,
		private readonly sizes: CycleSizes = DEFAULT_CYCLE,
	) {
		this.random = new Random(seed ^ 0x5eed);
		this.jobSerial = store.jobs.size;
		this.signalSerial = store.signals.length;
	}

	run(): CycleEvent[] {
		const { store, random } = this;
		const sources = [...store.sources.values()];
		if (sources.length === 0) return [];
		// Strictly increasing per cycle, so new jobs are the newest even within one second.
		const now = Math.max(this.nowSeconds(), this.lastTime + 1);
		this.lastTime = now;
		const events: CycleEvent[] = [];
		const emit = (type: WebhookEventType, data: Job | Signal, sourceId: string) => {
			for (const account_id of store.trackers(sourceId)) events.push({ account_id, event_type: type, event_data: data });
		};
		for (let i = 0; i < this.sizes.created; i++) {
			const stored = makeJob(random, ++this.jobSerial, random.pick(sources), now);
			stored.job.updated_at = now;
			store.addJob(stored);
			emit('job_created', stored.job, stored.job.source_id);
		}
		const existing = () => [...store.jobs.values()];
		for (const old of random.sample(existing(), this.sizes.updated)) {
			const job: Job = { ...old.job, job_title: `${old.job.job_title} (updated)`, updated_at: now };
			store.replaceJob({ job, text: searchText(job), places: placeText(job) });
			emit('job_updated', job, job.source_id);
		}
		for (const gone of random.sample(existing(), this.sizes.deleted)) {
			store.removeJob(gone.job.job_id);
			emit('job_deleted', { ...gone.job, updated_at: now, deleted_at: now }, gone.job.source_id);
		}
		for (let i = 0; i < this.sizes.signals; i++) {
			const source = random.pick(sources);
			const signal = makeSignal(random, ++this.signalSerial, source, (store.jobsBySource.get(source.source_id) ?? []).map((j) => j.job), now);
			store.addSignal(signal);
			emit('signal', signal, source.source_id);
		}
		return events;
	}
}
