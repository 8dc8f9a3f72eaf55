/** The bodies of POST /__mock/process and POST /__mock/events. */
import { z } from 'zod/v4';
import { LIMITS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../base/contract.mts';
import { ALL_TYPES } from '../data/generate.mts';
import { DEFAULT_CYCLE, type CycleSizes } from './cycle.mts';

const count = (fallback: number) => z.number().int().min(0).max(LIMITS.maxChangesPerCycle).default(fallback);

/** Each count left out keeps its default, so `{}` (or no body) is the usual cycle. */
export const cycleBodySchema = z.strictObject({
	created: count(DEFAULT_CYCLE.created),
	updated: count(DEFAULT_CYCLE.updated),
	deleted: count(DEFAULT_CYCLE.deleted),
	signals: count(DEFAULT_CYCLE.signals),
	domain_changes: count(DEFAULT_CYCLE.domain_changes),
	source_id: z.string().min(1).optional(),
});
export type CycleBody = z.infer<typeof cycleBodySchema>;

const cycleSizesSchema = cycleBodySchema.omit({ source_id: true });

/** The in-process processCycle()'s counts, read as POST /__mock/process reads them; a bad one throws a RangeError naming it. */
export function cycleSizes(input: Partial<CycleSizes>): CycleSizes {
	const parsed = cycleSizesSchema.safeParse(input);
	if (parsed.success) return parsed.data;
	const issue = parsed.error.issues[0];
	throw new RangeError(`processCycle: ${issue.path.length > 0 ? `"${String(issue.path[0])}" ` : ''}${issue.message} (counts 0–${LIMITS.maxChangesPerCycle}: ${Object.keys(DEFAULT_CYCLE).join(', ')})`);
}

/**
 * What POST /__mock/events may name for each event type: an existing job (`job_id`: the event changes that job) and a
 * signal type (`signal`: the new signal's). A new event type needs its entry (the type check asks).
 */
const EVENT_TAKES: Record<WebhookEventType, { jobId: boolean; signal: boolean }> = {
	job_created: { jobId: false, signal: false },
	job_updated: { jobId: true, signal: false },
	job_deleted: { jobId: true, signal: false },
	signal: { jobId: false, signal: true },
};
const typesTaking = (part: 'jobId' | 'signal') => WEBHOOK_EVENT_TYPES.filter((type) => EVENT_TAKES[type][part]).join(', ');

export const eventBodySchema = z
	.strictObject({
		event_type: z.enum(WEBHOOK_EVENT_TYPES),
		job_id: z.string().min(1).optional(),
		source_id: z.string().min(1).optional(),
		signal: z.strictObject({ group: z.string(), category: z.string(), type: z.string() }).optional(),
	})
	.refine((b) => !(b.job_id && b.source_id), { message: 'give job_id or source_id, not both', path: ['job_id'] })
	.refine((b) => !b.job_id || EVENT_TAKES[b.event_type].jobId, {
		message: `job_id names an existing job: only ${typesTaking('jobId')} take one (the others make a new record)`,
		path: ['job_id'],
	})
	.refine((b) => b.signal === undefined || EVENT_TAKES[b.event_type].signal, { message: `only ${typesTaking('signal')} takes signal`, path: ['signal'] })
	.refine((b) => b.signal === undefined || ALL_TYPES.some((t) => t.group === b.signal?.group && t.category === b.signal.category && t.type === b.signal.type), {
		message: 'no such signal type: group, category and type must be one path of the hierarchy (GET /v2/signals/… names them)',
		path: ['signal'],
	});
export type EventBody = z.infer<typeof eventBodySchema>;

export const CYCLE_BODY_SHAPE = '{"created"?, "updated"?, "deleted"?, "signals"?, "domain_changes"?, "source_id"?} or no body';
export const EVENT_BODY_SHAPE = '{"event_type", "job_id"? | "source_id"?, "signal"?: {"group", "category", "type"}}';
