/**
 * Postgres and Redis for n8n's queue mode, from Debian's packages: each started
 * on a free loopback port in its own temporary folder, stopped by PID, the
 * folder removed. Postgres refuses to run as root, so as root (CI) it runs as
 * the `postgres` user the Debian package creates. A machine without the
 * packages is told which are missing and how to install them, before anything starts.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type Service } from './processes.mts';
import { postgresBinDir, requireDebianPackages } from './system-packages.mts';

export interface QueueServices {
	postgres: { port: number; database: string; user: string };
	redis: { port: number };
	/** One SQL statement through `psql`, its rows as `psql -At` prints them (fields split by |). */
	query(sql: string): string;
	stop(): Promise<void>;
}

const isRoot = process.getuid?.() === 0;

/** A Postgres program; startQueueServices has checked that the package is installed. */
function postgresBin(name: string): string {
	return join(postgresBinDir()!, name);
}

/** argv that runs `command` as the postgres user when we are root. */
function asPostgresUser(command: string, args: string[]): [string, string[]] {
	return isRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

async function waitFor(what: string, service: Service, probe: () => boolean, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (service.child.exitCode !== null) break;
		if (probe()) return;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`${what} did not start. Its output:\n${service.output().slice(-3000)}`);
}

function succeeds(command: string, args: string[]): boolean {
	try {
		execFileSync(command, args, { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

export async function startQueueServices(ports: { postgres: number; redis: number }): Promise<QueueServices> {
	requireDebianPackages(['redis-server', 'postgresql']);
	const dir = mkdtempSync(join(tmpdir(), 'job-signals-queue-'));
	chmodSync(dir, 0o755);
	const dataDir = join(dir, 'pg');
	const user = 'n8n';
	const database = 'n8n';
	const services: Service[] = [];
	const stop = async () => {
		await Promise.all(services.map((service) => service.stop(15_000)));
		rmSync(dir, { recursive: true, force: true });
	};
	try {
		if (isRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
		execFileSync(...asPostgresUser(postgresBin('initdb'), ['-D', dataDir, '-U', user, '--auth=trust', '--encoding=UTF8', '--no-sync']), { stdio: 'ignore' });
		const postgres = startService(
			...asPostgresUser(postgresBin('postgres'), [
				'-D', dataDir,
				'-p', String(ports.postgres),
				'-h', '127.0.0.1',
				'-k', dir,
				// Test data only: losing it on a crash is fine, and fsync makes the runs slow on a shared disk.
				'-c', 'fsync=off',
				'-c', 'synchronous_commit=off',
				'-c', 'full_page_writes=off',
			]),
			{ label: 'postgres' },
		);
		services.push(postgres);
		const ready = ['-h', '127.0.0.1', '-p', String(ports.postgres), '-U', user];
		await waitFor('Postgres', postgres, () => succeeds(postgresBin('pg_isready'), ready));
		execFileSync(postgresBin('createdb'), [...ready, database], { stdio: 'ignore' });

		const redis = startService(
			'redis-server',
			['--port', String(ports.redis), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
			{ label: 'redis' },
		);
		services.push(redis);
		await waitFor('Redis', redis, () => succeeds('redis-cli', ['-p', String(ports.redis), 'ping']));
	} catch (error) {
		await stop();
		throw error;
	}
	const query = (sql: string) =>
		execFileSync(postgresBin('psql'), ['-h', '127.0.0.1', '-p', String(ports.postgres), '-U', user, '-d', database, '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql], { encoding: 'utf8' });
	return { postgres: { port: ports.postgres, database, user }, redis: { port: ports.redis }, query, stop };
}

/** What every n8n process of a queue-mode deployment gets on top of its own environment. */
export function queueModeEnv(services: QueueServices): NodeJS.ProcessEnv {
	return {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(services.postgres.port),
		DB_POSTGRESDB_DATABASE: services.postgres.database,
		DB_POSTGRESDB_USER: services.postgres.user,
		DB_POSTGRESDB_PASSWORD: '',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(services.redis.port),
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
	};
}
