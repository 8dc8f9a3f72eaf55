/**
 * Podman on this machine, for the mock's container image (mock-server/Dockerfile). There is no Docker
 * engine here; Debian's podman 4.3.1 (rootful) builds and runs the Dockerfile unchanged, given a
 * containers.conf of its own (through CONTAINERS_CONF, so the machine's podman set-up is left as is):
 *  - runc: Debian's podman would take crun, which refuses this machine's cgroups ("cgroups in hybrid
 *    mode not supported");
 *  - cgroupfs and a file events log: there is no systemd to ask;
 *  - default ulimits within this process's own hard limits: podman's defaults are above them, and
 *    raising them is refused (EPERM). nproc above 32768 is refused here too (runc, EPERM).
 * Every container is started and stopped by its id.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_ROOT } from '../n8n/config.mts';
import { requireDebianPackages } from '../n8n/system-packages.mts';

/** Beside the n8n cache: it and the base image persist on this machine between runs. */
export const CONTAINER_HOME = join(CACHE_ROOT, 'container');

/** This process's hard limit named `name` in /proc/self/limits ("Max open files", "Max processes"). */
function hardLimit(name: string): number {
	const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((row) => row.startsWith(name));
	const hard = line?.slice(name.length).trim().split(/\s+/)[1];
	if (hard === undefined) throw new Error(`/proc/self/limits has no "${name}"`);
	return hard === 'unlimited' ? Number.POSITIVE_INFINITY : Number(hard);
}

function writeContainersConf(): string {
	const nofile = Math.min(hardLimit('Max open files'), 1_048_576);
	const nproc = Math.min(hardLimit('Max processes'), 32_768);
	const path = join(CONTAINER_HOME, 'containers.conf');
	mkdirSync(CONTAINER_HOME, { recursive: true });
	writeFileSync(
		path,
		[
			'[containers]',
			`default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]`,
			'[engine]',
			'runtime = "runc"',
			'cgroup_manager = "cgroupfs"',
			'events_logger = "file"',
			'',
		].join('\n'),
	);
	return path;
}

let env: NodeJS.ProcessEnv | undefined;

/** The environment every podman command gets (written once per process): names the packages when one is missing. */
export function podmanEnv(): NodeJS.ProcessEnv {
	if (!env) {
		requireDebianPackages(['podman', 'runc', 'debootstrap']);
		env = { ...process.env, CONTAINERS_CONF: writeContainersConf() };
	}
	return env;
}

/** Runs a command to its end; rejects with its exit and the end of what it printed. */
export function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {}): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile(command, args, { env: options.env, cwd: options.cwd, timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
			if (error) reject(new Error(`${command} ${args.join(' ')} failed (${error.code ?? error.signal}):\n${`${stderr}\n${stdout}`.trim().slice(-4000)}`));
			else resolve(stdout);
		});
	});
}

export function podman(args: string[], timeoutMs?: number): Promise<string> {
	return run('podman', args, { env: podmanEnv(), timeoutMs });
}

export async function imageExists(image: string): Promise<boolean> {
	try {
		await podman(['image', 'exists', image]);
		return true;
	} catch {
		return false;
	}
}

/**
 * `podman build` of a Dockerfile in `context`, never pulling (`--pull=never`: the base image is local);
 * `fromScratch`: without podman's layer cache. Docker's format, since OCI's has no HEALTHCHECK (podman
 * drops it with a warning).
 */
export async function buildImage(context: string, tag: string, options: { fromScratch: boolean }): Promise<void> {
	await podman(['build', '--pull=never', ...(options.fromScratch ? ['--no-cache'] : []), '--format', 'docker', '--tag', tag, context], 600_000);
}

export interface ImageFacts {
	size: number;
	user: string;
	entrypoint: string[];
	cmd: string[];
	exposed: string[];
	volumes: string[];
	healthcheck: string[] | undefined;
}

export async function inspectImage(image: string): Promise<ImageFacts> {
	const [facts] = JSON.parse(await podman(['image', 'inspect', image])) as {
		Size: number;
		Config: { User?: string; Entrypoint?: string[]; Cmd?: string[]; ExposedPorts?: Record<string, unknown>; Volumes?: Record<string, unknown> };
		/** Docker's format only; podman puts it beside Config. */
		Healthcheck?: { Test: string[] };
	}[];
	const config = facts.Config;
	return {
		size: facts.Size,
		user: config.User ?? '',
		entrypoint: config.Entrypoint ?? [],
		cmd: config.Cmd ?? [],
		exposed: Object.keys(config.ExposedPorts ?? {}),
		volumes: Object.keys(config.Volumes ?? {}),
		healthcheck: facts.Healthcheck?.Test,
	};
}

export interface RunOptions {
	/** The host port (on 127.0.0.1) published for the container's `containerPort`. */
	hostPort: number;
	containerPort: number;
	/** Host folder mounted at `/data`. */
	dataDir?: string;
	/** Arguments after the image (the image's CMD when left out). */
	args?: string[];
}

/** `podman run -d`; resolves to the new container's id. */
export async function runContainer(image: string, options: RunOptions): Promise<string> {
	const volume = options.dataDir ? ['--volume', `${options.dataDir}:/data`] : [];
	const out = await podman(['run', '--detach', '--pull=never', '--publish', `127.0.0.1:${options.hostPort}:${options.containerPort}`, ...volume, image, ...(options.args ?? [])]);
	return out.trim().split('\n').at(-1)!;
}

/** SIGTERM, SIGKILL after `graceSeconds`. */
export async function stopContainer(id: string, graceSeconds = 10): Promise<void> {
	await podman(['stop', '--time', String(graceSeconds), id]);
}

export async function startContainer(id: string): Promise<void> {
	await podman(['start', id]);
}

/** Removed with its anonymous volumes, running or not. */
export async function removeContainer(id: string): Promise<void> {
	await podman(['rm', '--force', '--volumes', id]);
}

export async function containerLogs(id: string): Promise<string> {
	return await run('sh', ['-c', 'podman logs "$0" 2>&1', id], { env: podmanEnv() });
}

/** The container's exit code once stopped. */
export async function exitCode(id: string): Promise<number> {
	return Number((await podman(['inspect', '--format', '{{.State.ExitCode}}', id])).trim());
}

/** `podman healthcheck run`: the image's HEALTHCHECK once, now (no systemd here to run it on its interval). */
export async function healthy(id: string): Promise<boolean> {
	try {
		await podman(['healthcheck', 'run', id]);
		return true;
	} catch {
		return false;
	}
}

export async function removeImage(image: string): Promise<void> {
	await podman(['rmi', '--force', image]);
}
