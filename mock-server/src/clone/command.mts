/**
 * `job-signals-mock record` (cli.mts loads it when that is the first argument): walks an account
 * into FILE.partial page by page at the account's rate limit (continuing a walk kept there with
 * --resume), checking each answer against the contract, then writes the `--data` file from
 * FILE.partial and removes it, and ends with the drift report. Every message is one line on stderr,
 * with the token (which only the Authorization header carries) blanked should an answer repeat it;
 * the exit status says what went wrong (EXIT in flags.mts).
 */
import { rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ACCOUNT_IDS } from '../data/generate.mts';
import { Checkpoint, CheckpointError } from './checkpoint.mts';
import { writeClone } from './clone-file.mts';
import { ApiClient, CloneError } from './client.mts';
import { DriftReport } from './drift.mts';
import { writeDriftReport } from './drift-file.mts';
import { runCloneCommand } from './entry.mts';
import { EXIT, parseCloneFlags, CLONE_USAGE, type CloneFlags } from './flags.mts';
import { Messages } from './messages.mts';
import { Pacing } from './pacing.mts';
import { Progress, type WalkStatus } from './progress.mts';
import { PageError, pageContract, pagePath, Walk, type PageRequest } from './walk.mts';

const messages = new Messages('record');
const say = (message: string) => messages.say(message);

/** Checks the answer to `request` against the contract, then takes the walk past it. */
function take(walk: Walk, drift: DriftReport, request: PageRequest, body: unknown): void {
	const { endpoint, schema } = pageContract(request);
	drift.check(endpoint, pagePath(request), schema, body);
	walk.apply(body);
}

async function clone(flags: CloneFlags): Promise<number> {
	const problem = (await outProblem(flags.out, flags.force)) ?? (await reportProblem(flags.driftReport)) ?? accountProblem(flags.account);
	if (problem !== undefined) {
		say(problem);
		return EXIT.usage;
	}
	const partial = `${flags.out}.partial`;
	const walk = new Walk();
	const drift = new DriftReport();
	let checkpoint: Checkpoint;
	/** Pages in the checkpoint. */
	let saved = 0;
	try {
		const opened = await Checkpoint.open(partial, { from: flags.from, account: flags.account }, flags.checkpoint, (page) => {
			const request = walk.next();
			if (JSON.stringify(page.request) !== JSON.stringify(request)) {
				throw new CheckpointError(`${partial} does not follow this walk (page ${walk.pagesDone + 1} is not the one it would fetch): add --restart to start over`);
			}
			take(walk, drift, request as PageRequest, page.body);
		});
		checkpoint = opened.checkpoint;
		saved = opened.pages;
		if (saved > 0) say(`continuing the walk kept in ${partial} (${saved} pages)`);
	} catch (error) {
		if (error instanceof CheckpointError) say(error.message);
		else if (error instanceof PageError) say(`${partial} is damaged (a kept page is ${error.message}): add --restart to start over`);
		else say(`cannot write ${partial}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
		return EXIT.usage;
	}

	const pacing = new Pacing();
	const progress = new Progress(process.stderr);
	const status = (): WalkStatus => {
		const pages = walk.pages();
		return { pages, records: walk.records(), timeLeftMs: pacing.timeLeftMs(pages.total - pages.done), rate: pacing.rate() };
	};
	const client = new ApiClient(flags.from, flags.token, pacing, (pause) => progress.pause(pause, status()));
	/** How the message of a walk that stopped ends: where its pages are; without any, the checkpoint is removed (it would only be in the way). */
	const stopped = (): string => {
		if (saved > 0) return `; ${saved} pages kept in ${partial}: run again with --resume to continue`;
		rmSync(partial, { force: true });
		return '';
	};
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.once(signal, () => {
			progress.end();
			say(`stopped (${signal})${stopped()}`);
			process.exit(signal === 'SIGINT' ? 130 : 143);
		});
	}
	const started = performance.now();
	try {
		for (let request = walk.next(); request !== undefined; request = walk.next()) {
			const name = walk.nextName() as string;
			const body = await client.get(pagePath(request), name);
			try {
				take(walk, drift, request, body);
			} catch (error) {
				if (error instanceof PageError) throw new CloneError(`${name}: ${error.message}`);
				throw error;
			}
			await checkpoint.add({ request, body });
			saved++;
			progress.page(status());
		}
	} catch (error) {
		progress.end();
		if (!(error instanceof CloneError)) throw error;
		await checkpoint.close();
		say(`${error.message}${stopped()}`);
		return error.exitStatus;
	}
	await checkpoint.close();
	progress.end();

	let clone: Awaited<ReturnType<typeof writeClone>>;
	try {
		clone = await writeClone(partial, flags.out, flags.account);
	} catch (error) {
		say(`cannot write ${flags.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; ${partial} kept: run again with --resume to write it`);
		return EXIT.failed;
	}
	await Checkpoint.remove(partial);
	for (const change of walk.changedLists()) say(`warning: the account changed during the walk (${change})`);
	if (clone.orphans > 0) say(`warning: ${clone.orphans} jobs and signals left out: their source was not in the collections, or not under that domain, when they were listed`);
	if (clone.refused > 0) say(`warning: ${clone.refused} records left out that the mock's --data reader refuses (a signal's group/category/type not in the hierarchy, a source's domain another source has, a deleted job)`);
	for (const line of drift.lines()) say(line);
	if (!(await writeDriftReport(flags.driftReport, drift, messages))) return EXIT.failed;
	const { collections, sources, jobs, signals } = clone.written;
	const seconds = ((performance.now() - started) / 1000).toFixed(1);
	console.log(`Wrote ${flags.out}: ${collections} collections, ${sources} sources, ${jobs} jobs, ${signals} signals (${walk.pagesDone} pages; this run ${client.calls} calls in ${seconds} s)`);
	console.log(`Serve it: job-signals-mock --sources 0 --data ${flags.out}`);
	if (!drift.drifted) return EXIT.done;
	say(`the answers drift from the contract: ${clone.misfits} records that do not fit it were left out of ${flags.out} (exit ${EXIT.drifted})`);
	return EXIT.drifted;
}

/** Why FILE cannot be the output: its folder is missing, it is a folder, or it exists without --force. */
async function outProblem(out: string, force: boolean): Promise<string | undefined> {
	const problem = await folderProblem(out, '--out');
	if (problem !== undefined) return problem;
	const file = await stat(out).catch(() => undefined);
	if (file !== undefined && !force) return `${out} exists: add --force to replace it`;
	return undefined;
}

async function reportProblem(path: string | undefined): Promise<string | undefined> {
	return path === undefined ? undefined : folderProblem(path, '--drift-report');
}

async function folderProblem(path: string, flag: string): Promise<string | undefined> {
	const folder = dirname(resolve(path));
	const inside = await stat(folder).catch(() => undefined);
	if (!inside?.isDirectory()) return `cannot write ${path}: the folder ${folder} does not exist`;
	const file = await stat(path).catch(() => undefined);
	if (file?.isDirectory()) return `${flag} ${path} is a folder: give a file name`;
	return undefined;
}

function accountProblem(account: string): string | undefined {
	return ACCOUNT_IDS.includes(account) ? undefined : `--account ${account} is not one of the mock's accounts (${ACCOUNT_IDS.join(', ')})`;
}

runCloneCommand(messages, CLONE_USAGE, parseCloneFlags, clone);
