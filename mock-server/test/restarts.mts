/**
 * Services that restart on a state folder, in-process: one msw server for the file, fresh folders removed after the
 * file, and every service still open closed after each test (as a killed process would let go of its folder).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createMockService, type MockService } from '../src/service.mts';
import type { MockServiceOptions } from '../src/options.mts';

export function useRestarts(options: MockServiceOptions, folderPrefix: string) {
	const server = setupServer();
	const dirs: string[] = [];
	const open: MockService[] = [];
	// Deliveries and other outside calls go past msw.
	beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
	afterEach(() => {
		for (const service of open.splice(0)) service.close();
	});
	afterAll(() => {
		server.close();
		for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
	});
	/** Serves this service in-process from now on, and closes it after the test. */
	const serve = (service: MockService): MockService => {
		open.push(service);
		server.resetHandlers(...service.handlers);
		return service;
	};
	return {
		serve,
		newDir(): string {
			const dir = mkdtempSync(join(tmpdir(), folderPrefix));
			dirs.push(dir);
			return dir;
		},
		/** A service on the folder (the previous one must be stopped first, as a restarted process would be). */
		start: async (stateDir: string): Promise<MockService> => serve(await createMockService({ ...options, stateDir })),
		stop(service: MockService): void {
			service.close();
			open.splice(open.indexOf(service), 1);
		},
	};
}
