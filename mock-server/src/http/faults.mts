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
 *
 * Of the live rules that match a request, the most specific decides (`chosen`):
 * the longest `path`, then one with a `method` over one without, then the first
 * listed. So a `/v2/jobs` rule does not swallow a `/v2/jobs/filters` one, and
 * the list's order matters only between rules of the same path and kind. A
 * spent rule (`times` used up) stays listed with `remaining: 0` and matches no
 * more: the next most specific rule decides then.
 */
import { delay, HttpResponse } from 'msw';
import { z } from 'zod/v4';
import { CHOICES } from '../base/contract.mts';
import { Random } from '../data/random.mts';
import { BAD_BODIES, withBadBody } from './bad-body.mts';
import { apiError } from './respond.mts';

/** The mock's own control routes (MOCK_CONTROL_PATHS) all start with this; faults never apply to them. */
const CONTROL_PREFIX = '/__mock';

/** Whether a rule's `path` (a prefix) could match only control routes: `/__mock`, `/__mock/faults`, `/__m`… (`/` matches the service's routes too). */
export function matchesOnlyControlRoutes(path: string): boolean {
	return path !== '/' && (path.startsWith(CONTROL_PREFIX) || CONTROL_PREFIX.startsWith(path));
}

const faultRuleShape = z.object({
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
});

export const faultRuleSchema = faultRuleShape
	.refine((r) => r.status !== undefined || r.drop || r.latency_ms > 0 || r.body !== undefined, 'a fault needs status, drop, body or latency_ms')
	.refine((r) => !(r.drop && r.body !== undefined), 'a dropped connection sends no body: give drop or body, not both');

export const faultsBodySchema = z.object({ faults: z.array(faultRuleSchema).max(100) });
export type FaultRule = z.infer<typeof faultRuleSchema>;

/** A rule as GET and PUT /__mock/faults answer it: as stored, with the injections it has left (null: no `times`, no end). */
export const listedFaultRuleSchema = faultRuleShape.extend({ remaining: z.number().int().min(0).nullable() });
export type ListedFaultRule = z.infer<typeof listedFaultRuleSchema>;

/** What `chosen` reads of a rule. */
export type RuleScope = Pick<FaultRule, 'path' | 'method'>;

/**
 * The index of the rule that decides for a request among the `live` ones of `rules`, or -1 when none matches:
 * the longest matching `path`, then a rule with a `method` over one without, then the first listed.
 */
export function chosen(rules: readonly RuleScope[], method: string, pathname: string, live: (index: number) => boolean = () => true): number {
	let best = -1;
	for (let i = 0; i < rules.length; i++) {
		const rule = rules[i];
		if (!pathname.startsWith(rule.path) || (rule.method !== undefined && rule.method !== method) || !live(i)) continue;
		if (best < 0) {
			best = i;
			continue;
		}
		const current = rules[best];
		if (rule.path.length > current.path.length || (rule.path.length === current.path.length && rule.method !== undefined && current.method === undefined)) best = i;
	}
	return best;
}

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

	/** The rules, in the order given, each with its `remaining` injections. */
	list(): ListedFaultRule[] {
		return this.rules.map((rule, i) => ({ ...rule, remaining: rule.times === undefined ? null : rule.times - this.fired[i] }));
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

	/** The most specific live rule matching the request (`chosen`), if it fires this time (counting `after`, `rate` and `times`). */
	private take(request: Request, pathname: string): FaultRule | undefined {
		if (this.rules.length === 0) return undefined;
		const index = chosen(this.rules, request.method, pathname, (i) => {
			const times = this.rules[i].times;
			return times === undefined || this.fired[i] < times;
		});
		const rule = this.rules[index];
		if (!rule || this.seen[index]++ < rule.after || this.random.next() >= rule.rate) return undefined;
		this.fired[index]++;
		return rule;
	}
}
