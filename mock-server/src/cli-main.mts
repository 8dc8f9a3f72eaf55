/**
 * `job-signals-mock` (loaded by cli.mts once the Node version is checked): runs the standalone
 * mock server until SIGINT or SIGTERM, or, started by npx / `npm exec`, until npm's shell is gone.
 */
import { FlagError, parseFlags, USAGE } from './cli-flags.mts';
import { DataFileError } from './data/data-file.mts';
import { PAGE_PATH } from './page/page.mts';
import { DEFAULT_HOST, startMockServer } from './server.mts';
import { isLoopback } from './standalone/local-only.mts';

/** How often a mock started by npx looks whether its parent is still there. */
const PARENT_CHECK_MS = 250;

/**
 * npx and `npm exec` run the bin through a shell (`sh -c 'job-signals-mock' …`) and forward SIGINT
 * and SIGTERM to that shell only. dash (/bin/sh on Debian and Ubuntu) does not exec the command: on
 * SIGTERM to npx the shell dies and the mock would serve on, orphaned, holding its port. Started by
 * npx, the mock therefore stops, as on SIGTERM, once its parent is gone (process.ppid changes).
 * Only then: a mock started otherwise may be left running on purpose (`job-signals-mock &`).
 */
function stopWhenNpxIsGone(stop: (reason: string) => void): void {
	if (process.env.npm_lifecycle_event !== 'npx') return;
	const parent = process.ppid;
	const timer = setInterval(() => {
		if (process.ppid === parent) return;
		clearInterval(timer);
		stop('npx stopped (its shell is gone)');
	}, PARENT_CHECK_MS);
	timer.unref();
}

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
	if (options.corsOrigin?.trim() === '*') {
		console.warn(
			'job-signals-mock: warning: --cors-origin * lets every web page you open call the service: read its data (a --data clone of a real account too) ' +
				'and register webhooks to any address, which the mock then POSTs to. Use it only when you must, and not with real data.',
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
	console.log(`Page:         ${server.appUrl}${PAGE_PATH}`);
	console.log(`CORS:         ${server.service.cors.summary()}`);
	const { stateDir, cycleInterval } = server.service.options;
	const restored = server.service.restored;
	if (stateDir !== null && restored) console.log(`State folder: ${stateDir} (restored ${restored.records} changed records, ${restored.deliveries} logged deliveries)`);
	if (cycleInterval > 0) console.log(`Cycles:       every ${cycleInterval} s`);
	const { data } = server.service.options;
	if (typeof data === 'string') console.log(`Data file:    ${data}`);
	if (server.service.options.strictQuery) console.log('Query:        strict (an unknown query parameter is answered 400)');
	let stopping = false;
	// Closes the server (every connection: the port is free when it resolves) and the state folder (pending writes committed), then exit 0.
	const stop = (reason: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${reason}: shutting down`);
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
	stopWhenNpxIsGone(stop);
}

main().catch((error: unknown) => {
	console.error('job-signals-mock:', error instanceof Error ? error.message : error);
	process.exit(1);
});
