/**
 * Drift: where the API's answers leave the contract's zod schemas (contract/schemas.ts). A page is
 * checked against its envelope schema and each finding is put under its endpoint and field path,
 * array positions merged (`data[].salary`): a field missing, one the contract does not know
 * (added), one of another type, one whose value is outside the contract's enums, or one that breaks
 * another rule of the contract (a URL that is not one, a negative count: invalid). Each finding is
 * counted, with the first example seen. Bounded: at most MAX_DRIFT_PATHS distinct findings are
 * kept; past it only their number is; examples and path parts are cut to a few dozen characters.
 * Pure: no I/O (clone/command.mts and clone/check-drift.mts print it, clone/drift-file.mts writes it).
 */
import { z } from 'zod/v4';

export type DriftKind = 'missing' | 'added' | 'type' | 'enum' | 'invalid';

/** The most distinct (endpoint, path, kind) findings a report lists; past it they are counted, not listed. */
export const MAX_DRIFT_PATHS = 100;
/** The most characters of an example value, and of one field name in a path. */
export const MAX_EXAMPLE_CHARS = 80;
const MAX_KEY_CHARS = 60;

/** One place on a page where the answer leaves the contract. */
export interface Finding {
	path: string;
	kind: DriftKind;
	/** What the contract wants there: a type, or the allowed values. */
	expected: string;
	/** What the answer holds there (JSON, cut to MAX_EXAMPLE_CHARS); absent when missing. */
	value?: string;
}

export interface DriftEntry extends Finding {
	endpoint: string;
	/** Times seen, over every record of every page checked. */
	count: number;
	/** The page of the first example. */
	page: string;
}

export interface DriftSummary {
	fits: boolean;
	pages: number;
	findings: DriftEntry[];
	/** Findings at paths past the cap: seen, not listed. */
	unlisted: number;
	max_paths: number;
}

/** Every place where `body` leaves `schema`. */
export function checkPage(schema: z.ZodType, body: unknown): Finding[] {
	const findings: Finding[] = [];
	const parsed = schema.safeParse(body);
	if (!parsed.success) for (const issue of parsed.error.issues) findings.push(classify(issue, body));
	added(schema, body, [], findings);
	return findings;
}

/** Findings of many pages, per endpoint and path, bounded (MAX_DRIFT_PATHS). */
export class DriftReport {
	private readonly entries = new Map<string, DriftEntry>();
	private unlisted = 0;
	private pages = 0;

	constructor(private readonly maxPaths = MAX_DRIFT_PATHS) {}

	/** Checks one page of `endpoint` (`page` names it in examples) and adds what it finds. */
	check(endpoint: string, page: string, schema: z.ZodType, body: unknown): void {
		this.add(endpoint, page, checkPage(schema, body));
	}

	add(endpoint: string, page: string, findings: readonly Finding[]): void {
		this.pages++;
		for (const finding of findings) {
			const key = `${endpoint}\u0000${finding.path}\u0000${finding.kind}`;
			const known = this.entries.get(key);
			if (known !== undefined) known.count++;
			else if (this.entries.size < this.maxPaths) this.entries.set(key, { endpoint, ...finding, count: 1, page });
			else this.unlisted++;
		}
	}

	get drifted(): boolean {
		return this.entries.size > 0 || this.unlisted > 0;
	}

	summary(): DriftSummary {
		const findings = [...this.entries.values()].sort((a, b) => a.endpoint.localeCompare(b.endpoint) || a.path.localeCompare(b.path) || a.kind.localeCompare(b.kind));
		return { fits: !this.drifted, pages: this.pages, findings, unlisted: this.unlisted, max_paths: this.maxPaths };
	}

	/** The report as lines for a terminal: one per finding, grouped by endpoint. */
	lines(): string[] {
		const { findings, unlisted, pages } = this.summary();
		if (!this.drifted) return [`the answers fit the contract (${pages} pages checked)`];
		const lines = [`the answers drift from the contract (${pages} pages checked):`];
		let endpoint: string | undefined;
		for (const f of findings) {
			if (f.endpoint !== endpoint) lines.push(`  ${(endpoint = f.endpoint)}`);
			lines.push(`    ${f.path}: ${describe(f)} (${f.count}×; e.g. ${f.page})`);
		}
		if (unlisted > 0) lines.push(`  and ${unlisted} more findings at other paths (the report lists ${this.maxPaths} paths at most)`);
		return lines;
	}
}

function describe(f: Finding): string {
	switch (f.kind) {
		case 'missing':
			return `missing (the contract wants ${f.expected})`;
		case 'added':
			return `not in the contract, e.g. ${f.value}`;
		case 'type':
			return `${f.value} where the contract wants ${f.expected}`;
		case 'enum':
			return `${f.value} is not one of ${f.expected}`;
		case 'invalid':
			return `${f.value}: ${f.expected}`;
	}
}

function classify(issue: z.core.$ZodIssue, body: unknown): Finding {
	const path = pathOf(issue.path);
	const at = valueAt(body, issue.path);
	switch (issue.code) {
		case 'invalid_type':
			if (at.found === false || at.value === undefined) return { path, kind: 'missing', expected: issue.expected };
			return { path, kind: 'type', expected: issue.expected, value: example(at.value) };
		case 'invalid_value':
			return { path, kind: 'enum', expected: cut(issue.values.map((v) => JSON.stringify(v)).join(', ')), value: example(at.value) };
		case 'invalid_union': {
			// The contract's unions are of literals (a level 1, 2 or 3): a value of the right type outside them is an enum finding.
			const literals = literalsOf(issue);
			if (literals !== undefined && typeof at.value === typeof literals[0]) return { path, kind: 'enum', expected: cut(literals.map((v) => JSON.stringify(v)).join(', ')), value: example(at.value) };
			if (at.value === undefined) return { path, kind: 'missing', expected: 'a value' };
			return { path, kind: 'type', expected: literals === undefined ? 'another type' : typeof literals[0], value: example(at.value) };
		}
		default:
			return { path, kind: 'invalid', expected: cut(issue.message), value: example(at.value) };
	}
}

/** The literals a failed union of literals allowed, when it is one. */
function literalsOf(issue: z.core.$ZodIssueInvalidUnion): unknown[] | undefined {
	const values = issue.errors.flatMap((errors) => errors.map((e) => (e.code === 'invalid_value' && e.path.length === 0 ? e.values : undefined)));
	if (values.length === 0 || values.some((v) => v === undefined)) return undefined;
	return values.flat() as unknown[];
}

/** Fields of `value` that `schema` does not name, at every depth the schema describes. */
function added(schema: z.ZodType, value: unknown, path: PropertyKey[], findings: Finding[]): void {
	const inner = unwrap(schema);
	if (inner instanceof z.ZodObject) {
		if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
		const shape = inner.shape as Record<string, z.ZodType>;
		for (const [key, field] of Object.entries(value)) {
			if (Object.hasOwn(shape, key)) added(shape[key], field, [...path, key], findings);
			else findings.push({ path: pathOf([...path, key]), kind: 'added', expected: 'no such field', value: example(field) });
		}
	} else if (inner instanceof z.ZodArray) {
		if (!Array.isArray(value)) return;
		for (let i = 0; i < value.length; i++) added(inner.element as z.ZodType, value[i], [...path, i], findings);
	}
}

function unwrap(schema: z.ZodType): z.ZodType {
	let inner = schema;
	while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
	return inner;
}

/** `data[].info.type` from ['data', 3, 'info', 'type']: every position in a list is one path. */
function pathOf(path: readonly PropertyKey[]): string {
	let text = '';
	for (const part of path) {
		if (typeof part === 'number') text += '[]';
		else {
			const key = String(part);
			text += `${text === '' ? '' : '.'}${key.length > MAX_KEY_CHARS ? `${key.slice(0, MAX_KEY_CHARS)}…` : key}`;
		}
	}
	return text === '' ? '(the answer)' : text;
}

function valueAt(body: unknown, path: readonly PropertyKey[]): { found: boolean; value?: unknown } {
	let value = body;
	for (const part of path) {
		if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part)) return { found: false };
		value = (value as Record<PropertyKey, unknown>)[part];
	}
	return { found: true, value };
}

/** A value as JSON, cut: an example, not a copy of the answer. */
function example(value: unknown): string {
	if (value === undefined) return 'undefined';
	return cut(JSON.stringify(value) ?? String(value));
}

function cut(text: string): string {
	return text.length > MAX_EXAMPLE_CHARS ? `${text.slice(0, MAX_EXAMPLE_CHARS)}…` : text;
}
