/**
 * Fault injection, set through PUT /__mock/faults. A rule matches requests
 * whose path starts with `path` (and whose method is `method`, when given);
 * with probability `rate` it waits `latency_ms`, then answers `status`, drops
 * the connection, or sends a bad `body` (see bad-body.mts): with `status`, that
 * status with the bad body; without, the real answer with its body replaced.
 * `after` lets that many matching requests through first (a failure in the
 * middle of a walk); `times` retires the rule after that many injections (a
 * transient failure that a retry gets past). An injected 429 carries
 * Retry-After: 1, as the service's own 429s carry Retry-After. Rules never
 * touch /__mock routes, so a rule that could only match them is refused.
 */
import { delay, HttpResponse } from 'msw';
import { z } from 'zod/v4';
import { CHOICES } from '../../../contract/api';
import { Random } from '../data/random.mts';
import { BAD_BODIES, withBadBody } from './bad-body.mts';
import { apiError } from './respond.mts';

/** The mock's own control routes (MOCK_CONTROL_PATHS) all start with this; faults never apply to them. */
const CONTROL_PREFIX = '/__mock';

/** Whether a rule's `path` (a prefix) could match only control routes: `/__mock`, `/__mock/faults`, `/__m`… (`/` matches the service's routes too). */
export function matchesOnlyControlRoutes(path: string): boolean {
	return path !== '/' && (path.startsWith(CONTROL_PREFIX) || CONTROL_PREFIX.startsWith(path));
}

export const faultRuleSchema = z
	.object({
		path: z
			.string()
			.startsWith('/')
			.refine((path) => !matchesOnlyControlRoutes(path), {
				message: "faults apply to the service's routes only (/v2/…, /api/…), never to the mock's control routes (/__mock/…)",
			}),
		method: z.string().toUpperCase().optional(),
		status: z.number().int().min(400).max(599).optional(),
		body: z.enum(BAD_BODIES).optional(),
		rate: z.number().min(0).max(1).default(1),
		latency_ms: z.number().int().min(0).max(60_000).default(0),
		drop: z.boolean().default(false),
		after: z.number().int().min(0).default(0),
		times: z.number().int().min(1).optional(),
	})
	.refine((r) => r.status !== undefined || r.drop || r.latency_ms > 0 || r.body !== undefined, 'a fault needs status, drop, body or latency_ms')
	.refine((r) => !(r.drop && r.body !== undefined), 'a dropped connection sends no body: give drop or body, not both');

export const faultsBodySchema = z.object({ faults: z.array(faultRuleSchema).max(100) });
export type FaultRule = z.infer<typeof faultRuleSchema>;

export class Faults {
	private rules: FaultRule[] = [];
	/** Per rule (by position): matching requests seen, for `after`, and injections, for `times`. */
	private seen: number[] = [];
	private fired: number[] = [];
	private random = new Random(1);
	/** Told of every new rule list, so a state folder can save it. */
	onChange?: (rules: readonly FaultRule[]) => void;

	set(rules: FaultRule[]): void {
		this.rules = rules;
		this.seen = rules.map(() => 0);
		this.fired = rules.map(() => 0);
		this.onChange?.(rules);
	}

	list(): readonly FaultRule[] {
		return this.rules;
	}

	clear(): void {
		this.rules = [];
		this.seen = [];
		this.fired = [];
		this.random = new Random(1);
		this.onChange?.([]);
	}

	/** The answer to this request: `answer()` itself, or what a matching rule makes of it. */
	async around(request: Request, pathname: string, answer: () => Promise<Response>): Promise<Response> {
		const rule = this.take(request, pathname);
		if (!rule) return answer();
		if (rule.latency_ms > 0) await delay(rule.latency_ms);
		if (rule.drop) return HttpResponse.error();
		let response: Response;
		if (rule.status !== undefined) {
			const headers = rule.status === 429 ? { [CHOICES.rateLimitHeaderNames.retryAfter]: '1' } : undefined;
			response = apiError(rule.status, `Injected fault on ${rule.path}`, headers);
		} else {
			response = await answer();
		}
		return rule.body === undefined ? response : withBadBody(response, rule.body);
	}

	/** The first live rule matching the request, if it fires this time (counting `after`, `rate` and `times`). */
	private take(request: Request, pathname: string): FaultRule | undefined {
		const index = this.rules.findIndex(
			(r, i) =>
				pathname.startsWith(r.path) &&
				(r.method === undefined || r.method === request.method) &&
				(r.times === undefined || this.fired[i] < r.times),
		);
		const rule = this.rules[index];
		if (!rule || this.seen[index]++ < rule.after || this.random.next() >= rule.rate) return undefined;
		this.fired[index]++;
		return rule;
	}
}
