/**
 * The inputs that cost the stubs' linear-time engine most, for the regex benchmark (regex-worst.mts) and the budget's
 * test (test/wiremock-regex-budget.test.mts), so that both measure the same worst case.
 */
import { compileLinear, MAX_PROGRAM_SIZE } from '../src/wiremock/linear-regex.mts';

/** `length` characters of a and b from a fixed linear congruential sequence: nearly every character is a new state of the engine's DFA. */
export function randomAb(length: number, seed: number): string {
	let x = seed;
	let out = '';
	for (let i = 0; i < length; i++) {
		x = (x * 1103515245 + 12345) & 0x7fffffff;
		out += (x >> 16) & 1 ? 'a' : 'b';
	}
	return out;
}

/** Whether the mock takes `source` as a stub's pattern: it compiles whole and dot-all within MAX_PROGRAM_SIZE. */
export function accepted(source: string): boolean {
	try {
		return compileLinear(source, { whole: true, dotAll: true }).size <= MAX_PROGRAM_SIZE;
	} catch {
		return false;
	}
}

/** The largest `[ab]*a[ab]{n}` the mock accepts after `prefix`: the accepted pattern whose NFA costs most per character. */
export function worstPatternAfter(prefix: string): string {
	let n = 1;
	while (accepted(`${prefix}[ab]*a[ab]{${n + 1}}`)) n++;
	return `${prefix}[ab]*a[ab]{${n}}`;
}
