/**
 * One installer at a time per cache folder: `npm start` and `npm run test:e2e` started together on a
 * fresh machine would otherwise both run `npm install` into the same folder. The lock is a file
 * holding the installer's PID, created atomically (a link of a file already written, so it is never
 * seen empty); a lock whose process is gone (killed, crashed) is taken over.
 */
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

export interface LockWait {
	/** Said once when another process holds the lock. */
	onWait(holderPid: number): void;
	pollMs?: number;
}

function holder(lockPath: string): number | undefined {
	try {
		const pid = Number(readFileSync(lockPath, 'utf8').trim());
		return Number.isInteger(pid) && pid > 0 ? pid : undefined;
	} catch {
		return undefined;
	}
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: the process exists but belongs to another user.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

function tryLock(lockPath: string): boolean {
	const mine = `${lockPath}.${process.pid}`;
	writeFileSync(mine, `${process.pid}\n`);
	try {
		linkSync(mine, lockPath);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		return false;
	} finally {
		rmSync(mine, { force: true });
	}
}

/**
 * Removes a lock left by a process that is gone (nobody else will). Moved aside first and read again, so a
 * lock another waiter took over meanwhile is put back, not removed.
 */
function takeOverStale(lockPath: string, deadPid: number | undefined): void {
	const aside = `${lockPath}.stale-${process.pid}`;
	try {
		renameSync(lockPath, aside);
	} catch {
		return; // Already gone: the next try takes it.
	}
	if (holder(aside) === deadPid) rmSync(aside, { force: true });
	else renameSync(aside, lockPath);
}

/** Waits until this process holds the lock at `lockPath`; returns its release. */
export async function acquireInstallLock(lockPath: string, wait: LockWait): Promise<() => void> {
	let told = false;
	for (;;) {
		if (tryLock(lockPath)) return () => rmSync(lockPath, { force: true });
		const pid = holder(lockPath);
		if (pid === undefined || !alive(pid)) {
			takeOverStale(lockPath, pid);
			continue;
		}
		if (!told) {
			wait.onWait(pid);
			told = true;
		}
		await new Promise((resolve) => setTimeout(resolve, wait.pollMs ?? 2_000));
	}
}
