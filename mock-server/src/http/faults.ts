/**
 * Fault injection, set through PUT /__mock/faults. A rule matches requests
 * whose path starts with `path` (and whose method is `method`, when given);
 * with probability `rate` it waits `latency_ms`, then answers `status` or drops
 * the connection. With `times`, the rule applies to that many matching requests
 * and then retires (a transient failure that a retry gets past). Rules never
 * touch /__mock routes.
 */
import { delay, HttpResponse } from 'msw';
import { z } from 'zod/v4';
import { Random } from '../data/random';
import { apiError } from './respond';

export const faultRuleSchema = z
	.object({
		path: z.string().startsWith('/'),
		method: z.string().toUpperCase().optional(),
		status: z.number().int().min(400).max(599).optional(),
		rate: z.number().min(0).max(1).default(1),
		latency_ms: z.number().int().min(0).max(60_000).default(0),
		drop: z.boolean().default(false),
		times: z.number().int().min(1).optional(),
	})
	.refine((r) => r.status !== undefined || r.drop || r.latency_ms > 0, 'a fault needs status, drop or latency_ms');

export const faultsBodySchema = z.object({ faults: z.array(faultRuleSchema).max(100) });
export type FaultRule = z.infer<typeof faultRuleSchema>;

export class Faults {
	private rules: FaultRule[] = [];
	/** How often each rule (by position) has fired, for `times`. */
	private fired: number[] = [];
	private random = new Random(1);

	set(rules: FaultRule[]): void {
		this.rules = rules;
		this.fired = rules.map(() => 0);
	}

	list(): readonly FaultRule[] {
		return this.rules;
	}

	clear(): void {
		this.rules = [];
		this.fired = [];
		this.random = new Random(1);
	}

	/** The injected answer for this request, or undefined to let it through (after any latency). */
	async apply(request: Request, pathname: string): Promise<Response | undefined> {
		const index = this.rules.findIndex(
			(r, i) =>
				pathname.startsWith(r.path) &&
				(r.method === undefined || r.method === request.method) &&
				(r.times === undefined || this.fired[i] < r.times),
		);
		const rule = this.rules[index];
		if (!rule || this.random.next() >= rule.rate) return undefined;
		this.fired[index]++;
		if (rule.latency_ms > 0) await delay(rule.latency_ms);
		if (rule.drop) return HttpResponse.error();
		if (rule.status !== undefined) return apiError(rule.status, `Injected fault on ${rule.path}`);
		return undefined;
	}
}
