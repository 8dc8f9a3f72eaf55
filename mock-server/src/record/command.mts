/**
 * `job-signals-mock record` (cli.mts loads it when that is the first argument): walks an account
 * into FILE.partial page by page at the account's rate limit, continuing a walk the same command
 * left, then writes the `--data` file and removes FILE.partial. Every message is one line on
 * stderr, with the token (which only the Authorization header carries) blanked should an answer
 * repeat it; the exit status says what went wrong (RECORD_USAGE).
 */
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { generateDataset } from '../data/generate.mts';
import { DEFAULT_OPTIONS } from '../options.mts';
import { Checkpoint, CheckpointError } from './checkpoint.mts';
import { cloneOf, loadProblem, writeClone } from './clone-file.mts';
import { ApiClient, RecordError } from './client.mts';
import { parseRecordFlags, RECORD_USAGE, RecordFlagError, type RecordFlags } from './flags.mts';
import { Pacing } from './pacing.mts';
import { Progress, type WalkStatus } from './progress.mts';
import { PageError, pagePath, Walk } from './walk.mts';

const EXIT = { written: 0, failed: 1, usage: 2, tokenRefused: 3 } as const;

/** The token, once the flags are read: blanked in every message. */
let token: string | undefined;
const say = (message: string) => console.error(`job-signals-mock record: ${token === undefined ? message : message.replaceAll(token, '<token>')}`);

async function record(flags: RecordFlags): Promise<number> {
	const problem = (await outProblem(flags.out, flags.force)) ?? accountProblem(flags.account);
	if (problem !== undefined) {
		say(problem);
		return EXIT.usage;
	}
	const partial = `${flags.out}.partial`;
	const walk = new Walk();
	let checkpoint: Checkpoint;
	/** Pages in the checkpoint. */
	let saved = 0;
	try {
		const opened = await Checkpoint.open(partial, { from: flags.from, account: flags.account });
		checkpoint = opened.checkpoint;
		for (const page of opened.pages) {
			if (JSON.stringify(page.request) !== JSON.stringify(walk.next())) {
				throw new CheckpointError(`${partial} does not follow this walk (page ${walk.pagesDone + 1} is not the one it would fetch): delete it to start over`);
			}
			walk.apply(page.body);
		}
		saved = opened.pages.length;
		if (saved > 0) say(`continuing the walk kept in ${partial} (${opened.pages.length} pages)`);
	} catch (error) {
		if (error instanceof CheckpointError) say(error.message);
		else if (error instanceof PageError) say(`${partial} is damaged (a kept page is ${error.message}): delete it to start over`);
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
	const kept = () => `${saved} pages kept in ${partial}: run the same command again to continue`;
	for (const signal of ['SIGINT', 'SIGTERM'] as const) {
		process.once(signal, () => {
			progress.end();
			say(`stopped (${signal}); ${kept()}`);
			process.exit(signal === 'SIGINT' ? 130 : 143);
		});
	}
	const started = performance.now();
	try {
		for (let request = walk.next(); request !== undefined; request = walk.next()) {
			const name = walk.nextName() as string;
			const body = await client.get(pagePath(request), name);
			try {
				walk.apply(body);
			} catch (error) {
				if (error instanceof PageError) throw new RecordError(`${name}: ${error.message}`);
				throw error;
			}
			await checkpoint.add({ request, body });
			saved++;
			progress.page(status());
		}
	} catch (error) {
		progress.end();
		if (!(error instanceof RecordError)) throw error;
		say(`${error.message}; ${kept()}`);
		return error.exitStatus === 3 ? EXIT.tokenRefused : EXIT.failed;
	} finally {
		await checkpoint.close();
	}
	progress.end();

	const clone = cloneOf(walk, flags.account);
	const unloadable = await loadProblem(clone);
	if (unloadable !== undefined) {
		say(`the walk does not make a data file the mock loads (${unloadable}); ${partial} kept`);
		return EXIT.failed;
	}
	try {
		await writeClone(flags.out, clone);
	} catch (error) {
		say(`cannot write ${flags.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; ${partial} kept`);
		return EXIT.failed;
	}
	await Checkpoint.remove(partial);
	for (const change of walk.changedLists()) say(`warning: the account changed during the walk (${change})`);
	if (clone.left > 0) say(`warning: ${clone.left} jobs and signals left out: their source was not in the collections, or not under that domain, when they were listed`);
	if (walk.droppedFields.size > 0) say(`warning: fields the contract does not know were left out: ${[...walk.droppedFields].sort().join(', ')}`);
	const { collections, sources, jobs, signals } = clone.content;
	const seconds = ((performance.now() - started) / 1000).toFixed(1);
	console.log(`Wrote ${flags.out}: ${collections.length} collections, ${sources.length} sources, ${jobs.length} jobs, ${signals.length} signals (${walk.pagesDone} pages; this run ${client.calls} calls in ${seconds} s)`);
	console.log(`Serve it: job-signals-mock --sources 0 --data ${flags.out}`);
	return EXIT.written;
}

/** Why FILE cannot be the output: its folder is missing, it is a folder, or it exists without --force. */
async function outProblem(out: string, force: boolean): Promise<string | undefined> {
	const folder = dirname(resolve(out));
	const inside = await stat(folder).catch(() => undefined);
	if (!inside?.isDirectory()) return `cannot write ${out}: the folder ${folder} does not exist`;
	const file = await stat(out).catch(() => undefined);
	if (file?.isDirectory()) return `--out ${out} is a folder: give a file name`;
	if (file !== undefined && !force) return `${out} exists: add --force to replace it`;
	return undefined;
}

/** The mock's accounts are fixed (data/generate.mts): a clone for any other would not load. */
function accountProblem(account: string): string | undefined {
	const accounts = generateDataset({ ...DEFAULT_OPTIONS, sources: 0 }).accounts.map((a) => a.account_id);
	return accounts.includes(account) ? undefined : `--account ${account} is not one of the mock's accounts (${accounts.join(', ')})`;
}

async function main(): Promise<number> {
	let flags: RecordFlags;
	try {
		const parsed = parseRecordFlags(process.argv.slice(3), process.env, process.execArgv);
		if (parsed === 'help') {
			console.log(RECORD_USAGE);
			return EXIT.written;
		}
		flags = parsed;
	} catch (error) {
		if (!(error instanceof RecordFlagError)) throw error;
		console.error(`job-signals-mock record: ${error.message}\n\n${RECORD_USAGE}`);
		return EXIT.usage;
	}
	token = flags.token;
	return record(flags);
}

main().then(
	(status) => process.exit(status),
	(error: unknown) => {
		say(error instanceof Error ? error.message : String(error));
		process.exit(EXIT.failed);
	},
);
