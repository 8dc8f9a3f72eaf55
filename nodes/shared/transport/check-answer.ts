/**
 * Holds a parsed answer (or a webhook delivery's body) to a rule of contract/answers.ts
 * and says, in words a user can act on, the first thing that is wrong;
 * undefined when the value fits. `whole` names the value itself in the message.
 */
import type { Rule } from '../contract';

/** Ids a sender gives: no control characters (they are kept as newline-separated text), 200 characters at most. */
const DELIVERY_ID = /^\P{Cc}{1,200}$/u;

export function problemIn(value: unknown, rule: Rule, path = '', whole = 'the answer'): string | undefined {
	const where = path === '' ? whole : path;
	if (typeof rule === 'string') return scalarProblem(value, rule, where);
	if ('optional' in rule) return value === undefined ? undefined : problemIn(value, rule.optional, path, whole);
	if ('oneOf' in rule) return typeof value === 'string' && rule.oneOf.includes(value) ? undefined : `${where} is ${kindOf(value)}, not one of ${rule.oneOf.join(', ')}`;
	if ('object' in rule) {
		if (!isObject(value)) return `${where} is ${kindOf(value)}, not an object`;
		for (const [name, fieldRule] of Object.entries(rule.object)) {
			const problem = problemIn(value[name], fieldRule, path === '' ? name : `${path}.${name}`, whole);
			if (problem) return problem;
		}
		return undefined;
	}
	if (!Array.isArray(value)) return `${where} is ${kindOf(value)}, not a list`;
	if ('list' in rule) {
		for (let i = 0; i < value.length; i++) {
			const problem = problemIn(value[i], rule.list, `${where}[${i}]`, whole);
			if (problem) return problem;
		}
		return undefined;
	}
	// Records: the hot path (20,000 signals per Return All), so one loop with no calls per record.
	const id = rule.records;
	for (let i = 0; i < value.length; i++) {
		const record: unknown = value[i];
		if (!isObject(record)) return `${where}[${i}] is ${kindOf(record)}, not an object`;
		const key = record[id];
		if (typeof key !== 'string' || key === '') return `${where}[${i}].${id} is ${kindOf(key)}, not an identifier`;
	}
	return undefined;
}

function scalarProblem(value: unknown, rule: Exclude<Rule, object>, where: string): string | undefined {
	switch (rule) {
		case 'string':
			return typeof value === 'string' ? undefined : `${where} is ${kindOf(value)}, not a string`;
		case 'id':
			return typeof value === 'string' && value !== '' ? undefined : `${where} is ${kindOf(value)}, not an identifier`;
		case 'boolean':
			return typeof value === 'boolean' ? undefined : `${where} is ${kindOf(value)}, not true or false`;
		case 'deliveryId':
			return typeof value === 'string' && DELIVERY_ID.test(value) ? undefined : `${where} is ${kindOf(value)}, not a string of 1 to 200 characters without control characters`;
		case 'timestamp':
			return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? undefined : `${where} is ${kindOf(value)}, not a Unix timestamp (a number ≥ 0)`;
		case 'count':
		case 'positive': {
			const least = rule === 'count' ? 0 : 1;
			return Number.isInteger(value) && (value as number) >= least ? undefined : `${where} is ${kindOf(value)}, not a whole number ≥ ${least}`;
		}
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a value is, for a message; never the value itself when it is text (it may be anything the service sent). */
function kindOf(value: unknown): string {
	if (value === undefined) return 'missing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
	if (typeof value === 'number') return `the number ${value}`;
	if (typeof value === 'boolean') return `${value}`;
	return `an ${typeof value}`;
}
