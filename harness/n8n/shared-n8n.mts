/**
 * One regular-mode n8n (`n8n start`, SQLite) for every e2e file of a vitest run that needs nothing of n8n but to run
 * its workflows: no restart or kill, no setting of its own, no first start. test/e2e/shared-n8n.setup.mts serves it
 * (serveSharedN8n) and the files join it (useSharedN8n), each with its own mock, credential and workflows, which it
 * removes when it ends. n8n starts on the first file's request, not with the run: a run without such a file pays no
 * boot, and the files that run alone first run beside no idle n8n. Files run two at a time, so nothing a file reads
 * may depend on being alone in it: executions are read per workflow, and each file's webhook paths are its own.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { N8N_VERSION } from './config.mts';
import { waitForWebhooks, type N8nInstance } from './deployment.mts';
import { installN8n } from './install.mts';
import { ensureOwner, freeN8nPorts, loginCookie, n8nBoots, packAndInstallPackage, restSession, startN8n } from './local-n8n.mts';
import type { Service } from './processes.mts';
import { joinRealN8n, type RealN8n } from './real-n8n.mts';

/** The address of the run's shared-n8n server (serveSharedN8n), for the test files. */
export const SHARED_N8N_ENV = 'JOB_SIGNALS_SHARED_N8N';

/** What a file needs to join: the n8n's port, the owner's session cookie (one login for all), its user folder, and the file n8n logs to. */
interface Joining {
	port: number;
	cookie: string;
	userFolder: string;
	logFile: string;
}

/**
 * A server on loopback whose `POST /join` starts the shared n8n (once; the first call waits for it) and answers how to
 * join it. `close` stops n8n by its process group, removes its user folder and prints its `[boots]` line.
 */
export async function serveSharedN8n(): Promise<{ url: string; close(): Promise<void> }> {
	let userFolder: string | undefined;
	let service: Service | undefined;
	let started: Promise<Joining> | undefined;
	let joined = 0;
	const start = async (): Promise<Joining> => {
		await installN8n();
		userFolder = mkdtempSync(join(tmpdir(), 'job-signals-shared-'));
		packAndInstallPackage(userFolder);
		const ports = await freeN8nPorts();
		// Its output in a file as well: each file's failure messages read its tail (the process is this one's child).
		const logFile = join(userFolder, 'n8n.log');
		service = await startN8n(userFolder, ports, { label: 'shared', env: { N8N_LOG_OUTPUT: 'console,file', N8N_LOG_FILE_LOCATION: logFile } });
		try {
			await ensureOwner(ports.http);
			return { port: ports.http, cookie: await loginCookie(ports.http), userFolder, logFile };
		} catch (error) {
			// No file can join it now: stopped at once, not left idle beside the rest of the run.
			await service.stop(30_000);
			throw error;
		}
	};
	const server = createServer((request, response) => {
		request.resume();
		if (request.method !== 'POST' || request.url !== '/join') {
			response.writeHead(404, { 'content-type': 'text/plain' }).end(`the shared-n8n server answers POST /join only, not ${request.method} ${request.url}`);
			return;
		}
		started ??= start();
		void started.then(
			(joining) => {
				joined++;
				response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(joining));
			},
			(error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`the shared n8n did not start: ${error instanceof Error ? error.stack : String(error)}`),
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		async close() {
			await new Promise((resolve) => server.close(resolve));
			await started?.catch(() => undefined);
			await service?.stop(30_000);
			if (userFolder) rmSync(userFolder, { recursive: true, force: true });
			const { total, by } = n8nBoots();
			console.log(`[boots] the shared n8n (regular, n8n ${N8N_VERSION}), joined by ${joined} file(s): ${total} n8n boots ${JSON.stringify(by)}`);
		},
	};
}

let joinedHere = false;

/** Whether this test file joined the shared n8n (test/e2e/boots.setup.mts says so beside its own boots). */
export function joinedSharedN8n(): boolean {
	return joinedHere;
}

/**
 * Joins the run's shared n8n: the file's own mock (with `mockFlags`) and credential on it (RealN8n.connect), then
 * `setUp` imports and publishes the file's workflows, and its published webhook paths are waited for, as
 * startDeployment does. `close` removes what the file created (joinRealN8n) and stops its mock; n8n goes on.
 */
export async function useSharedN8n(mockFlags: string[], webhookPaths: string[], setUp: (n8n: RealN8n) => Promise<void>): Promise<N8nInstance> {
	const server = process.env[SHARED_N8N_ENV];
	if (!server) {
		throw new Error(`${SHARED_N8N_ENV} is not set: the shared n8n is served by test/e2e/shared-n8n.setup.mts, a globalSetup of vitest.e2e.config.mts (run the file with --config vitest.e2e.config.mts)`);
	}
	const joining = JSON.parse(await postForText(`${server}/join`)) as Joining;
	joinedHere = true;
	const base = `http://127.0.0.1:${joining.port}/`;
	const rest = restSession(joining.port, joining.cookie);
	const n8n = await joinRealN8n(joining.userFolder, mockFlags);
	try {
		await n8n.connect(() => rest);
		await setUp(n8n);
		await waitForWebhooks([base], webhookPaths);
	} catch (error) {
		await n8n.close();
		throw error;
	}
	return {
		n8n,
		webhookBases: [base],
		rest,
		logs: () => `--- the shared n8n (every file's lines)\n${existsSync(joining.logFile) ? readFileSync(joining.logFile, 'utf8').slice(-6000) : '(nothing logged yet)'}`,
		close: () => n8n.close(),
	};
}

/**
 * A POST's answer as text, an error naming the status when it is not a 200. node:http, not fetch: fetch gives up
 * waiting for an answer's headers after 300 s, and the first join waits for n8n's install on a fresh machine (minutes).
 */
function postForText(url: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const request = httpRequest(url, { method: 'POST', agent: false }, (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				if (response.statusCode === 200) resolve(text);
				else reject(new Error(`POST ${url}: ${response.statusCode} ${text}`));
			});
			response.on('error', reject);
		});
		request.on('error', reject);
		request.end();
	});
}
