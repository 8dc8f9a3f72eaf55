/**
 * The subset of JSONPath (Jayway's dialect, which WireMock's matchesJsonPath uses) that
 * stubs and request verification read. Compiled once, when a mapping is added; an
 * expression outside the subset is refused then, naming what is not served, instead of
 * never matching.
 *
 * Served: `$`; `.name`, `['name']`, `["name"]`, `['a','b']`; `[n]` and `[-n]`; `.*` and
 * `[*]`; `..name`, `..*`, `..[n]` (recursive descent); filters `[?(…)]` over `@`-paths
 * (`@.a.b`, `@['a']`, `@[0]`, `@`) with `==`, `!=`, `<`, `<=`, `>`, `>=`, `=~ /re/flags`,
 * existence (`[?(@.a)]`), `!`, `&&`, `||` and parentheses, and literals: strings
 * ('…' or "…"), numbers, true, false, null.
 * Not served: slices (`[1:3]`), functions (`length()`, `min()`…), `in`/`nin`/`subsetof`
 * and the other filter operators, `$` inside a filter.
 */
import { compileLinear, RegexRefused, type LinearRegex } from './linear-regex.mts';

export class JsonPathError extends Error {}

type Step =
	| { kind: 'names'; names: string[] }
	| { kind: 'indexes'; indexes: number[] }
	| { kind: 'wildcard' }
	| { kind: 'filter'; test: Filter }
	| { kind: 'descend'; then: Step };

type Filter = (node: unknown) => boolean;
type Operand = { kind: 'path'; steps: Step[] } | { kind: 'literal'; value: unknown };

export interface JsonPath {
	/** The expression as given. */
	readonly source: string;
	/** Whether it names one place (no wildcard, filter, union or descent): Jayway then answers a value, else a list. */
	readonly definite: boolean;
	/** The values it selects in the document (none: not found). */
	select(document: unknown): unknown[];
}

export function compileJsonPath(source: string): JsonPath {
	const parser = new Parser(source);
	parser.expect('$');
	const steps = parser.steps(false);
	if (!parser.done()) parser.fail('unexpected text');
	const definite = steps.every((step) => (step.kind === 'names' && step.names.length === 1) || (step.kind === 'indexes' && step.indexes.length === 1));
	return { source, definite, select: (document) => walk([document], steps) };
}

function walk(nodes: unknown[], steps: readonly Step[]): unknown[] {
	let current = nodes;
	for (const step of steps) current = current.flatMap((node) => apply(step, node));
	return current;
}

function apply(step: Step, node: unknown): unknown[] {
	switch (step.kind) {
		case 'names':
			return isObject(node) ? step.names.filter((name) => Object.hasOwn(node, name)).map((name) => node[name]) : [];
		case 'indexes':
			if (!Array.isArray(node)) return [];
			return step.indexes.map((i) => (i < 0 ? node.length + i : i)).filter((i) => i >= 0 && i < node.length).map((i) => node[i] as unknown);
		case 'wildcard':
			return Array.isArray(node) ? [...(node as unknown[])] : isObject(node) ? Object.values(node) : [];
		case 'filter':
			// Jayway filters an array's items, and an object as itself.
			return (Array.isArray(node) ? (node as unknown[]) : isObject(node) ? [node] : []).filter(step.test);
		case 'descend':
			return descendants(node).flatMap((each) => apply(step.then, each));
	}
}

/** The node and everything below it, document order. */
function descendants(node: unknown): unknown[] {
	const out: unknown[] = [node];
	const children = Array.isArray(node) ? (node as unknown[]) : isObject(node) ? Object.values(node) : [];
	for (const child of children) out.push(...descendants(child));
	return out;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const NAME_CHAR = /[^.[\]()\s=!<>&|,'"]/;

class Parser {
	private at = 0;
	constructor(private readonly text: string) {}

	fail(what: string): never {
		throw new JsonPathError(`JSONPath "${this.text}": ${what} at position ${this.at} (served: $, .name, ['name'], [n], [*], .*, .., [?(@.a op value)]; see the README)`);
	}

	done(): boolean {
		return this.at >= this.text.length;
	}

	private peek(ahead = 0): string {
		return this.text[this.at + ahead] ?? '';
	}

	private space(): void {
		while (this.peek() === ' ') this.at++;
	}

	expect(token: string): void {
		this.space();
		if (!this.text.startsWith(token, this.at)) this.fail(`expected "${token}"`);
		this.at += token.length;
	}

	private accept(token: string): boolean {
		this.space();
		if (!this.text.startsWith(token, this.at)) return false;
		this.at += token.length;
		return true;
	}

	/** Steps until the end, or (inside a filter) until a character that ends an operand. */
	steps(inFilter: boolean): Step[] {
		const steps: Step[] = [];
		for (;;) {
			if (this.text.startsWith('..', this.at)) {
				this.at += 2;
				steps.push({ kind: 'descend', then: this.peek() === '[' ? this.bracket() : this.dotted() });
			} else if (this.peek() === '.') {
				this.at++;
				steps.push(this.dotted());
			} else if (this.peek() === '[') {
				steps.push(this.bracket());
			} else {
				if (!inFilter && !this.done()) this.fail('unexpected text');
				return steps;
			}
		}
	}

	private dotted(): Step {
		if (this.peek() === '*') {
			this.at++;
			return { kind: 'wildcard' };
		}
		const start = this.at;
		while (!this.done() && NAME_CHAR.test(this.peek())) this.at++;
		if (this.at === start) this.fail('expected a name');
		const name = this.text.slice(start, this.at);
		if (this.peek() === '(') this.fail(`functions such as ${name}() are not served`);
		return { kind: 'names', names: [name] };
	}

	private bracket(): Step {
		this.expect('[');
		this.space();
		let step: Step;
		if (this.accept('*')) step = { kind: 'wildcard' };
		else if (this.accept('?')) {
			this.expect('(');
			const test = this.or();
			this.expect(')');
			step = { kind: 'filter', test };
		} else if (this.peek() === "'" || this.peek() === '"') {
			const names = [this.quoted()];
			while (this.accept(',')) {
				this.space();
				names.push(this.quoted());
			}
			step = { kind: 'names', names };
		} else {
			const indexes = [this.integer()];
			while (this.accept(',')) indexes.push(this.integer());
			if (this.peek() === ':') this.fail('slices are not served');
			step = { kind: 'indexes', indexes };
		}
		this.expect(']');
		return step;
	}

	private integer(): number {
		this.space();
		const match = /^-?\d+/.exec(this.text.slice(this.at));
		if (!match) this.fail(this.peek() === ':' ? 'slices are not served' : 'expected an index, a quoted name, * or ?(…)');
		this.at += match[0].length;
		return Number(match[0]);
	}

	private quoted(): string {
		const quote = this.peek();
		if (quote !== "'" && quote !== '"') this.fail('expected a quoted name');
		let out = '';
		for (this.at++; ; this.at++) {
			if (this.done()) this.fail('unterminated string');
			const ch = this.peek();
			if (ch === quote) break;
			if (ch === '\\') {
				this.at++;
				out += this.peek();
			} else out += ch;
		}
		this.at++;
		return out;
	}

	private or(): Filter {
		let left = this.and();
		while (this.accept('||')) {
			const [a, b] = [left, this.and()];
			left = (node) => a(node) || b(node);
		}
		return left;
	}

	private and(): Filter {
		let left = this.unary();
		while (this.accept('&&')) {
			const [a, b] = [left, this.unary()];
			left = (node) => a(node) && b(node);
		}
		return left;
	}

	private unary(): Filter {
		if (this.accept('!')) {
			const inner = this.unary();
			return (node) => !inner(node);
		}
		this.space();
		if (this.peek() === '(') {
			this.at++;
			const inner = this.or();
			this.expect(')');
			return inner;
		}
		return this.comparison();
	}

	private comparison(): Filter {
		const left = this.operand();
		this.space();
		const op = ['==', '!=', '<=', '>=', '=~', '<', '>'].find((candidate) => this.text.startsWith(candidate, this.at));
		if (op === undefined) {
			if (left.kind !== 'path') this.fail('a literal alone is no filter');
			if (/^[a-z]/i.test(this.peek())) this.fail('filter operators other than ==, !=, <, <=, >, >=, =~ are not served');
			return (node) => valuesOf(left, node).length > 0;
		}
		this.at += op.length;
		if (op === '=~') {
			const regex = this.regex();
			return (node) => valuesOf(left, node).some((a) => typeof a === 'string' && regex.test(a));
		}
		const right = this.operand();
		return (node) => {
			const as = valuesOf(left, node);
			const bs = valuesOf(right, node);
			return as.some((a) => bs.some((b) => compare(op, a, b)));
		};
	}

	private operand(): Operand {
		this.space();
		const ch = this.peek();
		if (ch === '@') {
			this.at++;
			return { kind: 'path', steps: this.steps(true) };
		}
		if (ch === '$') this.fail('$ inside a filter is not served');
		if (ch === "'" || ch === '"') return { kind: 'literal', value: this.quoted() };
		const match = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(this.text.slice(this.at));
		if (!match) this.fail('expected @…, a string, a number, true, false or null');
		this.at += match[0].length;
		return { kind: 'literal', value: JSON.parse(match[0]) as unknown };
	}

	/** `/body/flags`, found anywhere in the value; flags as Jayway reads them (Java's): i, m, s. */
	private regex(): LinearRegex {
		this.space();
		if (this.peek() !== '/') this.fail('=~ takes a /regular expression/');
		const end = this.text.indexOf('/', this.at + 1);
		if (end < 0) this.fail('unterminated regular expression');
		const body = this.text.slice(this.at + 1, end);
		this.at = end + 1;
		const flags = /^[a-z]*/i.exec(this.text.slice(this.at))?.[0] ?? '';
		this.at += flags.length;
		const stray = [...flags].find((flag) => !'ims'.includes(flag));
		if (stray !== undefined) this.fail(`regular expression flag "${stray}" is not served (served: i, m, s)`);
		try {
			return compileLinear(body, { whole: false, dotAll: flags.includes('s'), caseInsensitive: flags.includes('i'), multiline: flags.includes('m') });
		} catch (error) {
			if (error instanceof RegexRefused) this.fail(`bad regular expression ${JSON.stringify(body)}: ${error.message}`);
			throw error;
		}
	}
}

function valuesOf(operand: Operand, node: unknown): unknown[] {
	if (operand.kind === 'literal') return [operand.value];
	return walk([node], operand.steps);
}

function compare(op: string, a: unknown, b: unknown): boolean {
	switch (op) {
		case '==':
			return a === b;
		case '!=':
			return a !== b;
	}
	const comparable = (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
	if (!comparable) return false;
	const [x, y] = [a as number | string, b as number | string];
	return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
}
