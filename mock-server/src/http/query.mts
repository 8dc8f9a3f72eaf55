/** Query parsing with the contract's schemas: the first problem (a repeated single-valued parameter included) becomes a 400 naming the parameter. */
import type { z } from 'zod/v4';
import { apiError } from './respond.mts';

export function parseQuery<S extends z.ZodType>(
	schema: S,
	url: URL,
	repeated: readonly string[] = [],
): z.infer<S> | Response {
	const raw: Record<string, string | string[]> = {};
	const seen = new Set<string>();
	for (const [name, value] of url.searchParams) {
		if (repeated.includes(name)) continue;
		// Which of two values a client meant is a guess; the last one silently winning hid client bugs.
		if (seen.has(name)) return apiError(400, `Invalid query parameter "${name}": given more than once, takes one value`);
		seen.add(name);
		raw[name] = value;
	}
	for (const name of repeated) raw[name] = url.searchParams.getAll(name);
	const parsed = schema.safeParse(raw);
	if (parsed.success) return parsed.data;
	const issue = parsed.error.issues[0];
	const name = String(issue.path[0] ?? 'query');
	return apiError(400, `Invalid query parameter "${name}": ${issue.message}`);
}
