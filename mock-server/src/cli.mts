#!/usr/bin/env node
/** `job-signals-mock`: runs the standalone mock server until SIGINT/SIGTERM. */
import { FlagError, parseFlags, USAGE } from './cli-flags.mts';
import { DataFileError } from './data/data-file.mts';
import { DEFAULT_HOST, startMockServer } from './server.mts';
import { isLoopback } from './standalone/local-only.mts';

async function main(): Promise<void> {
	let flags: ReturnType<typeof parseFlags>;
	try {
		flags = parseFlags(process.argv.slice(2));
	} catch (error) {
		if (!(error instanceof FlagError)) throw error;
		console.error(`job-signals-mock: ${error.message}\n\n${USAGE}`);
		process.exit(2);
	}
	if (flags.help) {
		console.log(USAGE);
		return;
	}
	const { help: _help, ...options } = flags;
	const host = options.host ?? DEFAULT_HOST;
	if (!isLoopback(host)) {
		console.warn(
			`job-signals-mock: warning: --host ${host} lets other machines reach the mock, and its control routes (/__mock/...) have no authentication: ` +
				'anyone who reaches it can read every account token, reset it and inject faults. Use it only on a network you trust.',
		);
	}
	const started = performance.now();
	const server = await startMockServer(options).catch((error: unknown) => {
		if (!(error instanceof DataFileError)) throw error;
		// A bad data file is a bad argument, like a bad flag.
		console.error(`job-signals-mock: ${error.message}`);
		process.exit(2);
	});
	const { token } = server.service.options;
	// What the mock holds: the generated seed and, with --data, the file's records.
	const { store } = server.service;
	console.log(`Job Signals mock server ready in ${Math.round(performance.now() - started)} ms (${store.sources.size} sources, ${store.jobs.size} jobs, ${store.signals.length} signals)`);
	console.log(`API base URL: ${server.apiUrl}`);
	console.log(`App URL:      ${server.appUrl}`);
	console.log(`Demo token:   ${token}`);
	const { stateDir, cycleInterval } = server.service.options;
	const restored = server.service.restored;
	if (stateDir !== null && restored) console.log(`State folder: ${stateDir} (restored ${restored.records} changed records, ${restored.deliveries} logged deliveries)`);
	if (cycleInterval > 0) console.log(`Cycles:       every ${cycleInterval} s`);
	const { data } = server.service.options;
	if (typeof data === 'string') console.log(`Data file:    ${data}`);
	const stop = (signal: string) => {
		console.log(`\n${signal}: shutting down`);
		server.close().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.once('SIGINT', () => stop('SIGINT'));
	process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
	console.error('job-signals-mock:', error instanceof Error ? error.message : error);
	process.exit(1);
});
