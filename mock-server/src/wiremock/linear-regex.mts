/**
 * Every regular expression a stub or a request verification carries (urlPattern, urlPathPattern, matches,
 * doesNotMatch, JSONPath's =~), compiled for RE2's engine (re2js, a JavaScript port of RE2/J): it matches in time
 * linear in the text, so no pattern can stall the mock with backtracking (`(a+)+b` on "aaaa…a" takes as long as
 * `a+b`). RE2's syntax reads most of Java's (WireMock's); what Java has and RE2 cannot match in linear time
 * (back-references, lookaround, possessive quantifiers, atomic groups) or reads otherwise is refused with the
 * construct named, and so is a pattern whose compiled program is larger than MAX_PROGRAM_SIZE.
 *
 * Linear is not yet short: RE2's worst case (its NFA, when its DFA gives up) costs about one step per program
 * instruction per character. So every match is paid for before it runs, from a budget of WORK_BUDGET steps
 * per request (the whole request's patterns together, and each compile of a pattern); a match the budget cannot
 * pay for is not run and throws WorkBudgetExceeded, which the stub layer reads as "this stub does not match" and
 * names in the answer's X-Mock-Warning (withPatternBudget, notMatchedOverBudget). The compiled engines, each with
 * its DFA cache of at most DFA_MEMORY bytes, are kept for the LIVE_PATTERNS patterns used last; another is
 * compiled again when next used (and pays for it).
 */
import { RE2JS, RE2JSException, RE2Set } from 're2js';

/** A compiled pattern: `test` is whether it matches the whole text (anchored) or a part of it; it throws WorkBudgetExceeded when the request's budget cannot pay for the match. */
export interface LinearRegex {
	readonly source: string;
	/** Instructions in the compiled program: a match costs this many steps per character of text (and one more character). */
	readonly size: number;
	test(text: string): boolean;
}

/** Why a pattern is refused (the caller names where it was given). */
export class RegexRefused extends Error {}

/** A match or a compile the request's budget cannot pay for: not run. */
export class WorkBudgetExceeded extends Error {}

/**
 * The most instructions a pattern's compiled program may have: RE2's work per character of text grows with it
 * (bench/regex-worst.mts). 500 serves `[^/]{1,200}`, a UUID or a list of fifty words.
 */
export const MAX_PROGRAM_SIZE = 500;

/**
 * The steps (program instructions × characters of text, and compiles) one request's patterns may take together,
 * and one verification query (requests/find, count, remove) over the whole journal. The slowest pattern on the
 * longest text it allowed took about 75 ns a step on the shared 2-core machine at load average 9
 * (bench:mock-regex, part 0), so the budget is spent in under 50 ms there: a 500-instruction pattern reads at most
 * about 1,000 characters, a 10-instruction one (`.*"id".*`) about 48,000.
 */
export const WORK_BUDGET = 500_000;

/** What compiling a pattern's engine costs, in steps (a 500-instruction pattern took 3 to 5 ms to compile at load 8, an upper figure). */
export function compileWork(size: number): number {
	return 100 * (size + 50);
}

/** The bytes of DFA states one compiled pattern may cache (re2js's own default is 8 MiB); a pattern that needs more runs on the NFA, which the budget pays for. */
export const DFA_MEMORY = 64 * 1024;

/** How many compiled patterns are kept (the least recently used is dropped): at most LIVE_PATTERNS × DFA_MEMORY bytes of DFA states. */
export const LIVE_PATTERNS = 64;

/** The steps a request (or a verification query) has left, and the notes on what it did not run. */
export class WorkMeter {
	private spent = 0;
	readonly notes: string[] = [];
	readonly budget: number;
	constructor(budget: number = WORK_BUDGET) {
		this.budget = budget;
	}

	get used(): number {
		return this.spent;
	}

	/** Takes `steps` from the budget, or throws (and takes nothing) when it cannot pay for them. */
	take(steps: number, what: () => string): void {
		if (this.spent + steps > this.budget) {
			throw new WorkBudgetExceeded(`${what()}: ${steps.toLocaleString('en')} steps, and only ${(this.budget - this.spent).toLocaleString('en')} of the ${this.budget.toLocaleString('en')} a request's patterns may take are left`);
		}
		this.spent += steps;
	}
}

let current: WorkMeter | undefined;

/** Runs `run` with `meter` paying for every match in it (the stub layer: one meter per request). Without one, each match has a budget of its own. */
export function withPatternBudget<T>(meter: WorkMeter, run: () => T): T {
	const outer = current;
	current = meter;
	try {
		return run();
	} finally {
		current = outer;
	}
}

/** `test`, with a match it could not pay for read as no match and noted on the meter under `label` (a stub's id). */
export function notMatchedOverBudget(label: string, test: () => boolean): boolean {
	try {
		return test();
	} catch (error) {
		if (!(error instanceof WorkBudgetExceeded)) throw error;
		current?.notes.push(`${label} not matched: ${error.message}`);
		return false;
	}
}

/** The compiled engines, least recently used first (a Map keeps insertion order). */
const live = new Map<CompiledPattern, RE2Set>();

/** How many compiled engines are kept now (for tests of the bound). */
export function livePatterns(): number {
	return live.size;
}

class CompiledPattern implements LinearRegex {
	readonly source: string;
	readonly size: number;
	private readonly re2Source: string;
	private readonly flags: number;
	private readonly whole: boolean;
	constructor(source: string, size: number, re2Source: string, flags: number, whole: boolean) {
		this.source = source;
		this.size = size;
		this.re2Source = re2Source;
		this.flags = flags;
		this.whole = whole;
	}

	test(text: string): boolean {
		const meter = current ?? new WorkMeter();
		let engine = live.get(this);
		const what = () => `pattern ${JSON.stringify(this.source.length > 80 ? `${this.source.slice(0, 80)}…` : this.source)} (${this.size} instructions) on a text of ${text.length} characters`;
		meter.take(this.size * (text.length + 1) + (engine === undefined ? compileWork(this.size) : 0), what);
		if (engine === undefined) {
			engine = new RE2Set(this.whole ? RE2Set.ANCHOR_BOTH : RE2Set.UNANCHORED, this.flags, DFA_MEMORY);
			engine.add(this.re2Source);
			engine.compile();
			if (live.size >= LIVE_PATTERNS) live.delete(live.keys().next().value!);
		} else {
			live.delete(this);
		}
		live.set(this, engine);
		return engine.match(text).length > 0;
	}
}

export interface RegexOptions {
	/** Whether the whole text must match (Java's matches(), as WireMock uses it) or a part of it. */
	whole: boolean;
	/** `.` matches line ends too: WireMock compiles its patterns with DOTALL; JSONPath's =~ with the s flag. */
	dotAll: boolean;
	caseInsensitive?: boolean;
	multiline?: boolean;
}

/**
 * Compiles `source` as it stands (so a pattern cannot reach out of its own anchors, as `/x)|(.*` would once
 * wrapped in `^(?:…)$`), to check it and size it; its engine is compiled when first used.
 */
export function compileLinear(source: string, options: RegexOptions): LinearRegex {
	const re2 = toRe2Syntax(source);
	if ('refused' in re2) throw new RegexRefused(re2.refused);
	let flags = 0;
	if (options.dotAll) flags |= RE2JS.DOTALL;
	if (options.caseInsensitive === true) flags |= RE2JS.CASE_INSENSITIVE;
	if (options.multiline === true) flags |= RE2JS.MULTILINE;
	let size: number;
	try {
		size = RE2JS.compile(re2.source, flags).programSize();
	} catch (error) {
		if (error instanceof RE2JSException) throw new RegexRefused(`not a regular expression RE2's syntax reads (${error.message.replace(/^error parsing regexp: /, '').replace(/`(?:\(\?[ims]\))+/, '`')})`);
		throw error;
	}
	if (size > MAX_PROGRAM_SIZE) throw new RegexRefused(`compiles to ${size} instructions, more than the ${MAX_PROGRAM_SIZE} the mock matches (a large repeat count such as {500} costs one per repeat)`);
	return new CompiledPattern(source, size, re2.source, flags, options.whole);
}

/** Java escapes RE2 does not read, or reads otherwise, with what to write instead. */
const JAVA_ESCAPES: Record<string, string> = {
	Z: '\\Z (end before a final line break) is not served: use $ or \\z',
	G: '\\G (end of the previous match) is not served',
	R: '\\R (any line break) is not served: use (?:\\r\\n|[\\n\\r\\x0B\\f\\x{85}\\x{2028}\\x{2029}])',
	X: '\\X (a grapheme cluster) is not served',
	h: '\\h (horizontal whitespace) is not served: use [ \\t\\xA0\\x{1680}\\x{180e}\\x{2000}-\\x{200a}\\x{202f}\\x{205f}\\x{3000}]',
	H: '\\H is not served: use the negated class of \\h',
	v: "\\v is any vertical whitespace in Java but the vertical tab in RE2: write \\x0B, or [\\n\\x0B\\f\\r\\x{85}\\x{2028}\\x{2029}]",
	V: '\\V is not served: use the negated class of \\v',
	e: '\\e is not served: use \\x1B',
	c: '\\c (a control character) is not served: use \\x followed by its code',
};

/**
 * `source` in RE2's spelling where Java's differs only in spelling (\uXXXX, and a surrogate pair so written, as
 * \x{…}; Java's octal \0mnn), or the first construct of Java's regular expressions (WireMock's) that linear-time
 * matching cannot serve, or that RE2 would read otherwise than Java, named. \Q…\E quotes are kept as they are.
 */
export function toRe2Syntax(source: string): { source: string } | { refused: string } {
	let out = '';
	let inClass = false;
	for (let i = 0; i < source.length; i++) {
		const ch = source[i];
		if (ch === '\\') {
			const next = source[i + 1] ?? '';
			if (next === 'Q') {
				const end = source.indexOf('\\E', i + 2);
				const stop = end < 0 ? source.length : end + 2;
				out += source.slice(i, stop);
				i = stop - 1;
				continue;
			}
			if (next === 'u' && /^[0-9A-Fa-f]{4}$/.test(source.slice(i + 2, i + 6))) {
				let code = Number.parseInt(source.slice(i + 2, i + 6), 16);
				i += 5;
				const low = /^\\u(D[C-F][0-9A-Fa-f]{2})/i.exec(source.slice(i + 1));
				if (code >= 0xd800 && code <= 0xdbff && low !== null) {
					code = 0x10000 + ((code - 0xd800) << 10) + (Number.parseInt(low[1], 16) - 0xdc00);
					i += 6;
				}
				out += `\\x{${code.toString(16)}}`;
				continue;
			}
			if (next === '0') {
				const octal = /^[0-3]?[0-7]{1,2}/.exec(source.slice(i + 2, i + 5))?.[0];
				if (octal === undefined) return { refused: '\\0 must be followed by an octal digit, as in Java' };
				out += `\\x{${Number.parseInt(octal, 8).toString(16)}}`;
				i += 1 + octal.length;
				continue;
			}
			if (!inClass && next >= '1' && next <= '9') return { refused: `back-reference \\${next} is not served: linear-time matching cannot match back-references` };
			if (next === 'k' && source[i + 2] === '<') return { refused: 'back-reference \\k<name> is not served: linear-time matching cannot match back-references' };
			const java = JAVA_ESCAPES[next];
			if (java !== undefined) return { refused: java };
			out += ch + next;
			i++;
			continue;
		}
		out += ch;
		if (inClass) {
			if (ch === ']') inClass = false;
			else if (ch === '[' && source[i + 1] === ':') {
				// RE2's (and POSIX's) [:alpha:], kept whole.
				const end = source.indexOf(':]', i + 2);
				if (end < 0) continue;
				out += source.slice(i + 1, end + 2);
				i = end + 1;
			} else if (ch === '&' && source[i + 1] === '&') return { refused: 'class intersection (&& inside [...]) is not served: RE2 reads "&&" as two characters' };
			else if (ch === '[' && source[i + 1] !== ':') return { refused: "a class inside a class ([a[b]]: Java's union) is not served: RE2 reads \"[\" there as the character" };
			continue;
		}
		if (ch === '[') {
			inClass = true;
			// A "]" first (after "^") is the character itself.
			if (source[i + 1] === '^') out += source[++i];
			if (source[i + 1] === ']') out += source[++i];
			continue;
		}
		if (ch === '(' && source[i + 1] === '?') {
			const group = LOOK_GROUPS.find(([opening]) => source.startsWith(opening, i));
			if (group !== undefined) return { refused: `${group[1]} ${group[0]}…) is not served: linear-time matching cannot match lookaround or atomic groups` };
			continue;
		}
		const quantifier = ch === '*' || ch === '+' || (ch === '?' && source[i - 1] !== '(') || (ch === '}' && /\{\d+(?:,\d*)?\}$/.test(source.slice(Math.max(0, i - 21), i + 1)));
		if (quantifier && source[i + 1] === '+') return { refused: `possessive quantifier ${ch}+ is not served: write ${ch} (the match is the same unless the pattern relies on not backtracking)` };
	}
	return { source: out };
}

const LOOK_GROUPS: readonly (readonly [string, string])[] = [
	['(?=', 'lookahead'],
	['(?!', 'negative lookahead'],
	['(?<=', 'lookbehind'],
	['(?<!', 'negative lookbehind'],
	['(?>', 'atomic group'],
];
