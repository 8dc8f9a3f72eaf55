/**
 * The walk's progress on stderr: pages done of all, records so far, and the time left at the
 * account's rate. On a terminal one line rewritten in place; otherwise (a log, a pipe) a line at
 * most once a second, and one for each wait on the rate limit.
 */
import type { Pause } from './pacing.mts';

/** Lines to a log: at most one a second. */
const LOG_EVERY_MS = 1000;

export interface WalkStatus {
	pages: { done: number; total: number; exact: boolean };
	records: { collections: number; sources: number; jobs: number; signals: number };
	timeLeftMs: number;
	/** "60 requests/min", once the API said. */
	rate: string | undefined;
}

export class Progress {
	private lastLineAt = -Infinity;
	private onTerminal: boolean;

	constructor(private readonly out: NodeJS.WriteStream) {
		this.onTerminal = out.isTTY === true;
	}

	page(status: WalkStatus): void {
		const now = performance.now();
		if (!this.onTerminal && now - this.lastLineAt < LOG_EVERY_MS) return;
		this.lastLineAt = now;
		this.show(line(status));
	}

	pause(pause: Pause, status: WalkStatus): void {
		const why = pause.why === 'budget' ? 'the rate limit\'s budget is spent' : 'the API answered 429';
		this.show(`${line(status)}; waiting ${seconds(pause.ms)} (${why})`);
	}

	/** Ends the line being rewritten on a terminal, before other output. */
	end(): void {
		if (this.onTerminal && this.lastLineAt !== -Infinity) this.out.write('\n');
		this.lastLineAt = -Infinity;
	}

	private show(text: string): void {
		this.out.write(this.onTerminal ? `\r${text}\u001b[K` : `${text}\n`);
		if (this.onTerminal) this.lastLineAt = performance.now();
	}
}

function line({ pages, records, timeLeftMs, rate }: WalkStatus): string {
	const total = `${pages.exact ? '' : '~'}${count(pages.total)}`;
	const held = `${count(records.collections)} collections, ${count(records.sources)} sources, ${count(records.jobs)} jobs, ${count(records.signals)} signals`;
	const left = `about ${seconds(timeLeftMs)} left${rate === undefined ? '' : ` at ${rate}`}`;
	return `record: ${count(pages.done)}/${total} pages, ${held}; ${left}`;
}

function count(n: number): string {
	return n.toLocaleString('en-US');
}

/** "4 s", "1 min", "2 min 5 s". */
function seconds(ms: number): string {
	const s = Math.ceil(ms / 1000);
	return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min${s % 60 === 0 ? '' : ` ${s % 60} s`}`;
}
