/**
 * The clone's calls: GET with the bearer token, paced by `Pacing`, each answer read whole and
 * parsed as JSON. Every failure is a CloneError with one line for the user and the exit status;
 * its message names the URL (never the token: the token goes in the Authorization header only).
 * A redirect is followed by the nodes' rule (contract/token-transport.ts): to the same origin only,
 * at most MAX_REDIRECTS in a row; fetch itself would follow one to a sub-domain with the token.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { getFollowingSameOrigin, MAX_REDIRECTS, shownUrl } from '../base/contract.mts';
import { EXIT } from './flags.mts';
import type { Pacing, Pause } from './pacing.mts';

/** One call's answer must arrive within this. */
const TIMEOUT_MS = 60_000;
/** 429s in a row for one call before the walk gives up. */
const MAX_REFUSALS = 10;
/**
 * Tries of a call whose connection was reset or closed before its answer (an idle keep-alive
 * connection the server closed as it was reused, a proxy's hiccup): a GET is safe to send again,
 * and a long walk should not end on one such. Refused connections and timeouts are not tried again.
 */
const MAX_RESETS = 3;
const RESET_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);
const RESET_WAIT_MS = 1000;
/** The most of a bad answer's body a message repeats. */
const SNIPPET = 120;

/** The command's exit status (EXIT): the walk failed (the checkpoint is kept), or the API refused the token. */
export class CloneError extends Error {
	constructor(
		message: string,
		readonly exitStatus: typeof EXIT.failed | typeof EXIT.tokenRefused = EXIT.failed,
	) {
		super(message);
	}
}

export class ApiClient {
	/** Calls answered (429s included): what the API's request log counts. */
	calls = 0;
	/** Whether an answer has shown the token works: a 400 before then means the token was refused. */
	private accepted = false;

	constructor(
		private readonly base: string,
		private readonly token: string,
		private readonly pacing: Pacing,
		private readonly onPause: (pause: Pause) => void,
	) {}

	/** The JSON of `GET {base}{path}`; `what` names the page in messages. */
	async get(path: string, what: string): Promise<unknown> {
		const url = `${this.base}${path}`;
		let resets = 0;
		let refusals = 0;
		for (;;) {
			const pause = this.pacing.waitBeforeCall();
			if (pause) await this.wait(pause);
			const started = performance.now();
			let response: Response;
			let text: string;
			try {
				response = await this.follow(url, what);
				text = await response.text();
			} catch (error) {
				if (error instanceof CloneError) throw error;
				const why = reason(error);
				if (RESET_CODES.has(why) && resets < MAX_RESETS) {
					resets++;
					await sleep(RESET_WAIT_MS);
					continue;
				}
				throw new CloneError(`cannot reach ${url}: ${why}${resets === 0 ? '' : ` (${resets + 1} tries)`}`);
			}
			this.calls++;
			const retry = this.pacing.afterAnswer(response.headers, response.status, performance.now() - started);
			if (retry) {
				if (refusals++ >= MAX_REFUSALS) throw new CloneError(`${what}: the API answered 429 (rate limit) ${MAX_REFUSALS + 1} times in a row`);
				await this.wait(retry);
				continue;
			}
			if (!this.accepted && [400, 401, 403].includes(response.status)) {
				throw new CloneError(`the API refused the token: ${response.status} ${errorText(text)} (GET ${url})`, EXIT.tokenRefused);
			}
			if (!response.ok) throw new CloneError(`${what}: the API answered ${response.status} ${errorText(text)}${this.accepted ? '' : baseHint(this.base, response.status)}`);
			this.accepted = true;
			try {
				return JSON.parse(text) as unknown;
			} catch (error) {
				const type = response.headers.get('content-type') ?? 'no content type';
				throw new CloneError(`${what}: the answer is not JSON (${(error as Error).message}; ${type}, ${text.length} characters: ${snippet(text)})`);
			}
		}
	}

	/** The answer to `GET url`, after the same-origin redirects it leads to (the contract's loop, the nodes' rule). */
	private async follow(url: string, what: string): Promise<Response> {
		const signal = AbortSignal.timeout(TIMEOUT_MS);
		const followed = await getFollowingSameOrigin(url, (target) => fetch(target, { headers: { authorization: `Bearer ${this.token}`, accept: 'application/json' }, redirect: 'manual', signal }));
		if ('answer' in followed) return followed.answer;
		const { refused } = followed;
		const answered = `${what}: the API answered ${refused.status} with a redirect to ${shownUrl(refused.to.url)}`;
		if (refused.why === 'too-many') throw new CloneError(`${answered} after ${MAX_REDIRECTS} redirects in a row, so it was not followed further`);
		throw new CloneError(
			`${answered}, another origin than ${new URL(refused.from).origin}: the token goes to --from's origin only (a sub-domain, another port or http:// is another origin), so it was not followed; if the API has moved, give its new address to --from`,
		);
	}

	private async wait(pause: Pause): Promise<void> {
		this.onPause(pause);
		await sleep(pause.ms);
	}
}

/**
 * To a first call answered 404, when `--from`'s path does not end in /v2: the fix. The service's
 * paths are under /v2 (`https://<host>/v2/collections`), so a base URL without it finds no endpoint.
 */
function baseHint(base: string, status: number): string {
	const url = new URL(base);
	if (status !== 404 || /\/v2$/.test(url.pathname)) return '';
	const v2 = /^(.*?\/v2)(\/|$)/.exec(url.pathname);
	const fixed = `${url.origin}${v2 === null ? `${url.pathname.replace(/\/$/, '')}/v2` : v2[1]}`;
	return ` (is --from the API base URL? It must end in /v2, e.g. --from ${fixed})`;
}

/** The API error body's message (`{"status", "error", "message"}`), else the start of the body. */
function errorText(text: string): string {
	try {
		const body = JSON.parse(text) as { message?: unknown; error?: unknown };
		if (typeof body.message === 'string') return body.message;
		if (typeof body.error === 'string') return body.error;
	} catch {
		// Not JSON: the body itself says what it is.
	}
	return snippet(text) || '(empty body)';
}

function snippet(text: string): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > SNIPPET ? `${line.slice(0, SNIPPET)}…` : line;
}

/** ECONNREFUSED, ENOTFOUND, a timeout…: the cause fetch wraps in "fetch failed". */
function reason(error: unknown): string {
	if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
	const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
	if (typeof cause?.code === 'string') return cause.code;
	if (typeof cause?.message === 'string') return cause.message;
	return error instanceof Error ? error.message : String(error);
}
