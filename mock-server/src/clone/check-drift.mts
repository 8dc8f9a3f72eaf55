/**
 * `job-signals-mock check-drift` (cli.mts loads it when that is the first argument): reads the
 * first page of each list `record` walks, checks each answer against the contract, and prints the
 * drift report on stdout: a quick check for a tester's CI that the service still answers as the
 * contract says. Exit status 0 when it fits, 4 when it drifts (EXIT in flags.mts).
 */
import { ApiClient, CloneError } from './client.mts';
import { DriftReport } from './drift.mts';
import { writeDriftReport } from './drift-file.mts';
import { runCloneCommand } from './entry.mts';
import { CHECK_DRIFT_USAGE, EXIT, parseCheckDriftFlags, type CheckDriftFlags } from './flags.mts';
import { Messages } from './messages.mts';
import { Pacing } from './pacing.mts';
import { firstPages, PageError, pageContract, pageName, pagePath, type PageRequest } from './walk.mts';

const messages = new Messages('check-drift');

async function checkDrift(flags: CheckDriftFlags): Promise<number> {
	const drift = new DriftReport();
	const client = new ApiClient(flags.from, flags.token, new Pacing(), (pause) => messages.say(`waiting ${Math.ceil(pause.ms / 1000)} s (${pause.why === 'budget' ? 'the rate limit\'s budget is spent' : 'the API answered 429'})`));
	const read = async (request: PageRequest): Promise<unknown> => {
		const body = await client.get(pagePath(request), pageName(request, 1));
		const { endpoint, schema } = pageContract(request);
		drift.check(endpoint, pagePath(request), schema, body);
		return body;
	};
	try {
		const collections = await read({ list: 'collections' });
		let next: PageRequest[];
		try {
			next = firstPages(collections);
		} catch (error) {
			if (error instanceof PageError) throw new CloneError(`${pageName({ list: 'collections' }, 1)}: ${error.message}`);
			throw error;
		}
		for (const request of next) await read(request);
	} catch (error) {
		if (!(error instanceof CloneError)) throw error;
		messages.say(error.message);
		return error.exitStatus;
	}
	for (const line of drift.lines()) console.log(messages.blank(line));
	if (!(await writeDriftReport(flags.driftReport, drift, messages))) return EXIT.failed;
	return drift.drifted ? EXIT.drifted : EXIT.done;
}

runCloneCommand(messages, CHECK_DRIFT_USAGE, parseCheckDriftFlags, checkDrift);
