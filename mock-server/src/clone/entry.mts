/**
 * The one entry of `record` and `check-drift` (command.mts, check-drift.mts; cli.mts loads the file of the command named
 * first): the flags after the command's name read, `--help` answered with the usage on stdout (exit 0) and a bad flag
 * with its message and the usage on stderr (exit 2); else the command runs, every message from then on with the token
 * blanked, and the process exits with the status it returns, or 1 with the message of what it threw.
 */
import { CloneFlagError, EXIT } from './flags.mts';
import type { Messages } from './messages.mts';

/** A command's flag reader (flags.mts): `env` and `nodeFlags` (process.execArgv) say whether a proxy reads the token. */
type ParseFlags<Flags> = (argv: readonly string[], env: NodeJS.ProcessEnv, nodeFlags: readonly string[]) => Flags | 'help';

export function runCloneCommand<Flags extends { token: string }>(messages: Messages, usage: string, parse: ParseFlags<Flags>, run: (flags: Flags) => Promise<number>): void {
	const main = async (): Promise<number> => {
		let flags: Flags | 'help';
		try {
			flags = parse(process.argv.slice(3), process.env, process.execArgv);
		} catch (error) {
			if (!(error instanceof CloneFlagError)) throw error;
			messages.say(`${error.message}\n\n${usage}`);
			return EXIT.usage;
		}
		if (flags === 'help') {
			console.log(usage);
			return EXIT.done;
		}
		messages.token = flags.token;
		return run(flags);
	};
	main().then(
		(status) => process.exit(status),
		(error: unknown) => {
			messages.say(error instanceof Error ? error.message : String(error));
			process.exit(EXIT.failed);
		},
	);
}
