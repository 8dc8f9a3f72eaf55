/**
 * WireMock's value patterns ("content patterns"), as stubs and request verification use
 * them on a query parameter, a header or the body: read from a mapping's JSON (anything
 * not served is a MappingError naming it) into a test of a value.
 *
 * Served: equalTo (caseInsensitive), contains, doesNotContain, matches, doesNotMatch
 * (a regular expression in RE2's syntax, matched in linear time, that must match the whole value, as Java's matches()),
 * equalToJson (ignoreArrayOrder, ignoreExtraElements), matchesJsonPath (an expression, or
 * {expression, <one of these patterns>}), and absent (query parameters and headers).
 */
import { compileJsonPath, JsonPathError, type JsonPath } from './json-path.mts';
import { compileLinear, RegexRefused, type LinearRegex } from './linear-regex.mts';

/** A mapping (or a verification pattern) the mock cannot serve or does not understand: a 400 naming the field. */
export class MappingError extends Error {
	/** `field`: the field's path, as `fail` was given it (`request.cookies`). */
	constructor(
		readonly field: string,
		message: string,
	) {
		super(`${field}: ${message}`);
	}
}

/** The value as the pattern sees it: its text, and its JSON parsed once (undefined: not JSON). */
export interface Value {
	readonly text: string;
	json(): unknown;
}

/**
 * A pattern read: `absent`, or a test of a value. `shown`: the pattern as the 404 diff and near misses show it
 * (`[equalTo] 2`); `expected`: an equalTo's text, which near misses measure a value's distance from (distance.mts).
 */
export type ValuePattern =
	| { absent: true }
	| { absent: false; test: (value: Value) => boolean; needsJson: boolean; shown: string; expected?: { text: string; caseInsensitive: boolean } };

const SERVED = ['equalTo', 'contains', 'doesNotContain', 'matches', 'doesNotMatch', 'equalToJson', 'matchesJsonPath', 'absent'] as const;
const MODIFIERS: Record<string, readonly string[]> = {
	equalTo: ['caseInsensitive'],
	equalToJson: ['ignoreArrayOrder', 'ignoreExtraElements'],
};
/** WireMock's patterns this mock does not serve, named in the refusal. */
const NOT_SERVED = ['equalToXml', 'matchesXPath', 'binaryEqualTo', 'before', 'after', 'equalToDateTime', 'matchesJsonSchema', 'and', 'or', 'hasExactly', 'includes', 'not'];

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function fail(path: string, message: string): never {
	throw new MappingError(path, message);
}

/** A text value whose JSON is parsed on first use. */
export function textValue(text: string): Value {
	let parsed: { json: unknown } | undefined;
	return {
		text,
		json() {
			if (parsed === undefined) {
				try {
					parsed = { json: JSON.parse(text) as unknown };
				} catch {
					parsed = { json: undefined };
				}
			}
			return parsed.json;
		},
	};
}

/** Reads one pattern object (`{"equalTo": "x"}`); `path` names it in errors; `allowAbsent`: query parameters and headers. */
export function readValuePattern(input: unknown, path: string, allowAbsent: boolean): ValuePattern {
	if (!isPlainObject(input)) fail(path, `must be a pattern object such as {"equalTo": "value"} (served: ${SERVED.join(', ')})`);
	const keys = Object.keys(input);
	const operators = keys.filter((key) => (SERVED as readonly string[]).includes(key));
	const unknown = keys.find((key) => !(SERVED as readonly string[]).includes(key) && !Object.values(MODIFIERS).flat().includes(key));
	if (unknown !== undefined) {
		const why = NOT_SERVED.includes(unknown) ? `WireMock's "${unknown}" is not served by this mock` : `"${unknown}" is no pattern WireMock or this mock knows`;
		fail(`${path}.${unknown}`, `${why} (served: ${SERVED.join(', ')})`);
	}
	if (operators.length !== 1) fail(path, `needs exactly one of ${SERVED.join(', ')}, got ${operators.length === 0 ? 'none' : operators.join(' and ')}`);
	const operator = operators[0];
	const stray = keys.find((key) => key !== operator && !(MODIFIERS[operator] ?? []).includes(key));
	if (stray !== undefined) fail(`${path}.${stray}`, `does not go with ${operator}`);
	const flag = (name: string): boolean => {
		const value = input[name];
		if (value === undefined) return false;
		if (typeof value !== 'boolean') fail(`${path}.${name}`, 'must be true or false');
		return value;
	};
	const operand = input[operator];
	const at = `${path}.${operator}`;
	switch (operator) {
		case 'absent':
			if (!allowAbsent) fail(at, 'serves query parameters and headers only');
			if (operand !== true) fail(at, 'must be true');
			return { absent: true };
		case 'equalTo': {
			const expected = text(operand, at);
			if (flag('caseInsensitive')) {
				const lower = expected.toLowerCase();
				return present(`[equalTo] ${expected} (case-insensitive)`, (value) => value.text.toLowerCase() === lower, false, { text: expected, caseInsensitive: true });
			}
			return present(`[equalTo] ${expected}`, (value) => value.text === expected, false, { text: expected, caseInsensitive: false });
		}
		case 'contains': {
			const part = text(operand, at);
			return present(`[contains] ${part}`, (value) => value.text.includes(part));
		}
		case 'doesNotContain': {
			const part = text(operand, at);
			return present(`[doesNotContain] ${part}`, (value) => !value.text.includes(part));
		}
		case 'matches': {
			const regex = wholeRegex(operand, at);
			return present(`[matches] ${text(operand, at)}`, (value) => regex.test(value.text));
		}
		case 'doesNotMatch': {
			const regex = wholeRegex(operand, at);
			return present(`[doesNotMatch] ${text(operand, at)}`, (value) => !regex.test(value.text));
		}
		case 'equalToJson': {
			const expected = jsonOperand(operand, at);
			const options = { ignoreArrayOrder: flag('ignoreArrayOrder'), ignoreExtraElements: flag('ignoreExtraElements') };
			return present(`[equalToJson] ${JSON.stringify(expected)}`, (value) => {
				const actual = value.json();
				return actual !== undefined && jsonEqual(expected, actual, options);
			}, true);
		}
		case 'matchesJsonPath':
			return jsonPathPattern(operand, at);
	}
	return fail(at, 'is not served');
}

/** A pattern that needs a value. A value nested too deeply for the matcher's recursion (a hostile body) is no match, not a crash. */
const present = (shown: string, test: (value: Value) => boolean, needsJson = false, expected?: { text: string; caseInsensitive: boolean }): ValuePattern => ({
	absent: false,
	needsJson,
	shown,
	...(expected && { expected }),
	test: (value) => {
		try {
			return test(value);
		} catch (error) {
			if (error instanceof RangeError) return false;
			throw error;
		}
	},
});

function text(operand: unknown, path: string): string {
	// WireMock reads a number or boolean operand as its text (query parameters such as {"equalTo": 2}).
	if (typeof operand === 'number' || typeof operand === 'boolean') return String(operand);
	if (typeof operand !== 'string') fail(path, 'must be a string');
	return operand;
}

/** Java's matches(), as WireMock uses it: the whole value, the pattern compiled alone (linear-regex.mts). */
export function wholeRegex(operand: unknown, path: string): LinearRegex {
	const source = text(operand, path);
	try {
		return compileLinear(source, { whole: true, dotAll: true });
	} catch (error) {
		if (error instanceof RegexRefused) fail(path, `${JSON.stringify(source)}: ${error.message}`);
		throw error;
	}
}

function jsonOperand(operand: unknown, path: string): unknown {
	let expected = operand;
	if (typeof operand === 'string') {
		try {
			expected = JSON.parse(operand) as unknown;
		} catch {
			fail(path, 'must be JSON (a JSON value, or a string holding JSON)');
		}
	}
	let text: string;
	try {
		text = JSON.stringify(expected);
	} catch {
		fail(path, 'is nested too deeply');
	}
	if (text.includes('${json-unit.')) fail(path, "json-unit placeholders (${json-unit.any-string}, …) are not served by this mock");
	return expected;
}

function jsonPathPattern(operand: unknown, path: string): ValuePattern {
	let expression: unknown = operand;
	let inner: ValuePattern | undefined;
	let whole = false;
	if (isPlainObject(operand)) {
		const { expression: given, ...rest } = operand;
		expression = given;
		if (Object.keys(rest).length === 0) fail(path, 'as an object needs "expression" and one pattern, e.g. {"expression": "$.name", "equalTo": "x"}');
		inner = readValuePattern(rest, path, true);
		whole = 'equalToJson' in rest;
	}
	if (typeof expression !== 'string') fail(path, 'must be a JSONPath expression, or {"expression", <pattern>}');
	let compiled: JsonPath;
	try {
		compiled = compileJsonPath(expression);
	} catch (error) {
		if (error instanceof JsonPathError) fail(path, error.message);
		if (error instanceof RangeError) fail(path, 'the JSONPath expression is nested too deeply');
		throw error;
	}
	if (inner === undefined) {
		return present(`[matchesJsonPath] ${expression}`, (value) => {
			const document = value.json();
			if (document === undefined) return false;
			return found(compiled, compiled.select(document));
		}, true);
	}
	const sub = inner;
	return present(`[matchesJsonPath] ${expression} ${sub.absent ? '[absent]' : sub.shown}`, (value) => {
		const document = value.json();
		if (document === undefined) return false;
		const texts = resultTexts(compiled, compiled.select(document), whole);
		if (sub.absent) return texts.length === 0;
		return texts.some((each) => sub.test(textValue(each)));
	}, true);
}

/** WireMock's rule without a sub-pattern: a definite path must find a value that is not null, not an empty list or object; any other path at least one value. */
function found(path: JsonPath, values: unknown[]): boolean {
	if (!path.definite) return values.length > 0;
	if (values.length === 0) return false;
	const value = values[0];
	if (value === null) return false;
	if (Array.isArray(value)) return value.length > 0;
	if (isPlainObject(value)) return Object.keys(value).length > 0;
	return true;
}

/**
 * What a sub-pattern is tried on (any one matching is a match), as WireMock does: an object as its
 * JSON; a list's items (or an indefinite path's values) each as text; a scalar as text. With
 * equalToJson (`whole`) a list is tried whole, as JSON.
 */
function resultTexts(path: JsonPath, values: unknown[], whole: boolean): string[] {
	const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
	if (path.definite) {
		if (values.length === 0 || values[0] === null) return [];
		const value = values[0];
		if (Array.isArray(value) && !whole) return value.map(asText);
		return [asText(value)];
	}
	if (whole) return values.length === 0 ? [] : [JSON.stringify(values)];
	return values.filter((value) => value !== null).map(asText);
}

/** JSON equality, with WireMock's two relaxations: array order, and extra object fields and array items in the actual value. */
function jsonEqual(expected: unknown, actual: unknown, options: { ignoreArrayOrder: boolean; ignoreExtraElements: boolean }): boolean {
	if (Array.isArray(expected)) {
		if (!Array.isArray(actual)) return false;
		if (!options.ignoreExtraElements && actual.length !== expected.length) return false;
		if (expected.length > actual.length) return false;
		if (!options.ignoreArrayOrder) return expected.every((item, i) => jsonEqual(item, actual[i], options));
		// Each expected item takes a distinct actual item.
		const used = new Set<number>();
		return expected.every((item) => {
			const index = actual.findIndex((candidate, i) => !used.has(i) && jsonEqual(item, candidate, options));
			if (index < 0) return false;
			used.add(index);
			return true;
		});
	}
	if (isPlainObject(expected)) {
		if (!isPlainObject(actual)) return false;
		const keys = Object.keys(expected);
		if (!options.ignoreExtraElements && Object.keys(actual).length !== keys.length) return false;
		return keys.every((key) => Object.hasOwn(actual, key) && jsonEqual(expected[key], actual[key], options));
	}
	return expected === actual;
}
